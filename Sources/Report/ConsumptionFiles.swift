import Attribution
import Support

/// `consumption_requests.csv`: every CONSUMPTION_REQUEST of the window, the answer the
/// evidence supports, and how it ended; `consumption_responses.jsonl`: the bodies to send.
enum ConsumptionFiles {
    static let header = [
        "notification_uuid", "transaction_id", "product_id", "account_id", "reason", "received_at", "respond_by",
        "customer_consented", "delivery_status", "consumption_percentage", "refund_preference", "basis", "outcome",
        "outcome_at", "delivered_cost", "past_respond_by",
    ]

    /// Added at the end with `report --journal`: what `respond` did about each request.
    static let journalColumns = ["answer_state", "answered_at", "answered_in_time", "apple_error_code"]

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(
            path: folder + "/consumption_requests.csv", header: header + (figures.journalRead ? journalColumns : []))
        let responses = try AtomicFileWriter(path: folder + "/consumption_responses.jsonl")
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
            }
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
