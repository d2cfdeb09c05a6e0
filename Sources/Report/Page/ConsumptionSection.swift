import Attribution
import Support

/// Refund requests (CONSUMPTION_REQUEST): how they ended, what the evidence supports, and
/// the deadline Apple gives for an answer.
enum ConsumptionSection {
    /// A warning at the top of the page for requests the journal shows unanswered in time.
    ///
    /// Only with the journal of `respond`: without it nothing is known, and nothing is
    /// flagged; the section says so in one sentence.
    static func deadlineAlert(_ figures: ReportFigures) -> String {
        guard figures.journalRead else { return "" }
        let late = figures.consumption.filter { !($0.answered?.inTime ?? false) }
        guard !late.isEmpty else { return "" }
        return
            "<p class=\"alert\">\(late.count) of \(PageText.counted(figures.consumption.count, "refund request")) got no answer within Apple's 12 hours"
            + " (refused, failed, missed or never sent): Apple decided those without your data. See answer_state in consumption_requests.csv.</p>\n"
    }

    /// Whether answers went out in time: from the journal, or a sentence saying it is not known.
    static func answers(_ figures: ReportFigures) -> String {
        typealias T = PageText
        guard figures.journalRead else {
            return
                "<p class=\"muted\">Whether these requests were answered in time is not known here: answers are sent by <code>refund-cost respond</code>, and a report run with its <code>--journal</code> says which were.</p>\n"
        }
        let inTime = figures.consumption.filter { $0.answered?.inTime ?? false }.count
        var text =
            "<p>Answered within 12 hours: <b>\(inTime) of \(figures.consumption.count)</b> (from the journal of refund-cost respond).</p>\n"
        text += earned(figures)
        let late = figures.consumption.filter { !($0.answered?.inTime ?? false) }
        guard !late.isEmpty else { return text }
        text +=
            "<div class=\"scroll\"><table><tr><th>request</th><th>transaction</th><th>signed</th><th>what the journal says</th><th class=\"n\">Apple error</th></tr>\n"
        for request in late {
            let answered = request.answered
            text +=
                "<tr><td>\(T.escape(request.notificationUUID))</td><td>\(T.escape(request.transactionID ?? ""))</td><td class=\"d\">\(request.signedAt)</td><td>\(T.escape(answered?.state ?? "none"))</td><td class=\"n\">\(answered?.appleErrorCode.map(String.init) ?? "")</td></tr>\n"
        }
        return text + "</table></div>\n"
    }

    /// What answering earned: Apple's decisions after each answer sent, and the money on each side.
    static func earned(_ figures: ReportFigures) -> String {
        typealias T = PageText
        guard let answering = figures.answering, answering.answered > 0 else { return "" }
        let currency = figures.currency
        var text = "<h3>What answering earned</h3>\n"
        text +=
            "<p>Answering saved <b>\(T.money(answering.priceKept)) \(currency)</b>: Apple declined \(T.counted(answering.declined, "refund")) after the answer was sent, and the purchases kept their price. "
            + "It granted \(answering.granted) (\(T.money(answering.priceRefunded)) \(currency) refunded, on purchases whose delivery had already cost \(T.money(answering.deliveryCostRefunded)) \(currency)); "
            + "\(answering.answered - answering.decided) \(answering.answered - answering.decided == 1 ? "has" : "have") no decision yet. "
            + "Of the \(answering.decided) decided, Apple decided <b>\(answering.decidedAsPreferred)</b> as the answer preferred.</p>\n"
        text +=
            "<div class=\"scroll\"><table><tr><th>preference sent</th><th class=\"n\">Apple granted</th><th class=\"n\">Apple declined</th><th class=\"n\">no decision yet</th></tr>\n"
        for decision in answering.decisions {
            text +=
                "<tr><td>\(T.escape(T.words(decision.preference.rawValue)))</td><td class=\"n\">\(decision.granted)</td><td class=\"n\">\(decision.declined)</td><td class=\"n\">\(decision.pending)</td></tr>\n"
        }
        text += "</table></div>\n"
        if answering.priceUnknown > 0 {
            text +=
                "<p class=\"muted\">\(T.counted(answering.priceUnknown, "decided request")) without a price in the data \(answering.priceUnknown == 1 ? "is" : "are") left out of these sums.</p>\n"
        }
        return text
            + "<p class=\"muted\">Each request's answer and Apple's decision: sent_preference, decided_as_preferred, price_kept and price_refunded in consumption_requests.csv.</p>\n"
    }

    static func html(_ figures: ReportFigures) throws -> String {
        typealias T = PageText
        var text = "<h2>Refund requests (consumption requests)</h2>\n"
        guard !figures.consumption.isEmpty else {
            return text + "<p>No refund request (CONSUMPTION_REQUEST) in this window.</p>\n"
        }
        var cells: [String: [ConsumptionOutcome: (count: Int, cost: Money)]] = [:]
        var consented = 0
        for request in figures.consumption {
            let reason = request.reason.map(T.words) ?? "no reason given"
            var cell = cells[reason]?[request.outcome] ?? (0, .zero)
            cell.count += 1
            cell.cost = try cell.cost.adding(request.deliveredCost)
            cells[reason, default: [:]][request.outcome] = cell
            if request.consented { consented += 1 }
        }
        let counts = figures.counts
        let outcomes = counts.consumptionByOutcome.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ")
        text +=
            "<p>\(T.counted(counts.consumptionRequests, "refund request")). <b>Apple's decision</b>, as later notifications show it: \(outcomes).</p>\n"
        text +=
            "<div class=\"scroll\"><table><tr><th>reason</th><th class=\"n\">Apple granted</th><th class=\"n\">Apple declined</th><th class=\"n\">no decision yet</th><th class=\"n\">delivered cost (\(figures.currency))</th></tr>\n"
        for reason in cells.keys.sorted() {
            let row = cells[reason] ?? [:]
            var cost = Money.zero
            for cell in row.values { cost = try cost.adding(cell.cost) }
            text += "<tr><td>\(T.escape(reason))</td>"
            for outcome in [ConsumptionOutcome.granted, .declined, .pending] {
                text += "<td class=\"n\">\(row[outcome]?.count ?? 0)</td>"
            }
            text += "<td class=\"n\">\(T.money(cost))</td></tr>\n"
        }
        text +=
            "</table></div>\n<p class=\"muted\"><b>This tool's recommendation</b> from the evidence (the refund preference to send Apple, not Apple's decision): "
        text += counts.consumptionByRecommendation.map { "\(T.words($0.0.rawValue)) \($0.1)" }.joined(separator: ", ")
        text +=
            ". \(consented) of \(figures.consumption.count) customers consented to share consumption data (only those answers can be sent, in consumption_responses.jsonl); "
        text += "see consumption_requests.csv.</p>\n"
        return text + answers(figures)
    }
}
