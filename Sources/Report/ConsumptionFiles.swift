import Attribution
import Support

/// `consumption_requests.csv`: every CONSUMPTION_REQUEST of the window, the answer the
/// evidence supports, and how it ended; `consumption_responses.jsonl`: the bodies to send.
enum ConsumptionFiles {
    /// With its journal columns (what `respond` did about each request, and what its answer
    /// earned) only when `report --journal` read a journal.
    static let requests = OutputFile(
        "consumption_requests.csv",
        [
            ("notification_uuid", .text), ("transaction_id", .text), ("product_id", .text), ("account_id", .text),
            ("reason", .text), ("received_at", .timestamp), ("respond_by", .timestamp), ("customer_consented", .boolean),
            ("delivery_status", .text), ("consumption_percentage", .count), ("refund_preference", .text), ("basis", .text),
            ("outcome", .text), ("outcome_at", .timestamp), ("delivered_cost", .money), ("past_respond_by", .boolean),
            ("answer_state", .text), ("answered_at", .timestamp), ("answered_in_time", .boolean), ("apple_error_code", .count),
            ("sent_preference", .text), ("decided_as_preferred", .boolean), ("price", .money), ("price_kept", .money),
            ("price_refunded", .money), ("before_journal", .boolean), ("decided_before_answer", .boolean),
            ("store", .text),
        ], optionalColumns: journalColumns)
    /// The columns written with `--journal` only.
    static let journalColumns: Set<String> = [
        "answer_state", "answered_at", "answered_in_time", "apple_error_code", "sent_preference", "decided_as_preferred",
        "price", "price_kept", "price_refunded", "before_journal", "decided_before_answer",
    ]
    static let responses = OutputFile(
        "consumption_responses.jsonl", [("transaction_id", .text), ("body", .json)], jsonLines: true)

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let written = figures.journalRead ? requests : requests.named(requests.name, without: journalColumns)
        let file = try CSVFileWriter(path: folder + "/" + written.name, header: written.header)
        let responses = try AtomicFileWriter(path: folder + "/" + Self.responses.name)
        for request in figures.consumption {
            file.text(request.notificationUUID)
            file.text(request.transactionID ?? "")
            file.text(request.productID ?? "")
            file.text(request.account ?? "")
            file.text(request.reason ?? "")
            file.timestamp(request.receivedAt)
            file.timestamp(request.respondBy)
            file.bool(request.consented)
            file.text(request.delivery.rawValue)
            if let percentage = request.consumptionPercentage { file.integer(Int(percentage)) } else { file.empty() }
            file.text(request.preference.rawValue)
            file.text(request.basis)
            file.text(request.outcome.rawValue)
            file.timestamp(request.outcomeAt)
            file.money(request.deliveredCost)
            file.bool(request.pastRespondBy)
            if figures.journalRead {
                let answered = request.answered
                file.text(answered?.state ?? "none")
                file.timestamp(answered?.answeredAt)
                file.bool(answered?.inTime ?? false)
                if let code = answered?.appleErrorCode { file.integer(code) } else { file.empty() }
                let sent = answered?.sentPreference
                file.text(sent?.rawValue ?? "")
                // Only a decision signed after the answer can be as the answer preferred, or not.
                let decision = request.decisionAfterAnswer
                switch decision {
                case .granted: file.bool(sent != .decline)
                case .declined: file.bool(sent == .decline)
                case .noAnswer, .pending, .decidedBefore: file.empty()
                }
                if let price = request.price { file.money(price) } else { file.empty() }
                // Kept for the answer's sake: declined after an answer that preferred a decline.
                if decision == .declined, sent == .decline, let price = request.price {
                    file.money(price)
                } else {
                    file.empty()
                }
                if decision == .granted, let refunded = request.priceRefunded { file.money(refunded) } else { file.empty() }
                file.bool(answered?.beforeJournal ?? false)
                file.bool(decision == .decidedBefore)
            }
            // Apple's consumption requests: Google's refund reviews are respond --store play's.
            file.text(Store.appStore.rawValue)
            try file.endRow()
            // Apple rejects a body without consent: only consented requests get one.
            if request.consented, let id = request.transactionID {
                let line = JSONValue.object([("transactionId", .string(id)), ("body", request.requestBody)])
                try responses.append(line.compact + "\n")
            }
        }
        try file.commit()
        try responses.commit()
    }
}
