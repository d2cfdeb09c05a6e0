import Attribution
import Support

/// Refund requests (CONSUMPTION_REQUEST): how they ended, what the evidence supports, and
/// the deadline Apple gives for an answer.
enum ConsumptionSection {
    /// A warning at the top of the page for the requests that need a person.
    ///
    /// Only with the journal of `respond`: without it nothing is known, and nothing is
    /// flagged; the section says so in one sentence. Requests skipped on purpose, and those
    /// whose 12 hours ended before the journal began, are not flagged.
    static func deadlineAlert(_ figures: ReportFigures) -> String {
        guard figures.journalRead else { return "" }
        let attention = figures.consumption.filter(\.needsAttention)
        guard !attention.isEmpty else { return "" }
        return
            "<p class=\"alert\">\(PageText.counted(attention.count, "refund request")) \(attention.count == 1 ? "needs" : "need") attention: "
            + "\(states(attention)). Apple decides those without your data unless an answer reaches it within its 12 hours; "
            + "see the refund requests below and answer_state in consumption_requests.csv.</p>\n"
    }

    /// `1 refused, 2 failed`: the journal's states of `requests`, in a fixed order.
    private static func states(_ requests: [ConsumptionFigure]) -> String {
        let order = ["refused", "failed", "sending", "missed", "sent", "none"]
        let words = ["sending": "still being sent", "sent": "answered late", "none": "never answered"]
        return order.compactMap { state -> String? in
            let count = requests.filter { $0.answered?.state == state }.count
            return count > 0 ? "\(count) \(words[state] ?? state)" : nil
        }.joined(separator: ", ")
    }

    /// The most requests the page lists; consumption_requests.csv has every one.
    static let listed = 100

    /// Whether answers went out in time: from the journal, or a sentence saying it is not known.
    static func answers(_ figures: ReportFigures) -> String {
        typealias T = PageText
        guard figures.journalRead else {
            return
                "<p class=\"muted\">Whether these requests were answered in time is not known here: answers are sent by <code>refund-cost respond</code>, and a report run with its <code>--journal</code> says which were.</p>\n"
        }
        let counts = figures.counts
        let inTime = counts.consumptionAnsweredInTime ?? 0
        let before = counts.consumptionBeforeJournal ?? 0
        var text =
            "<p>Answered within 12 hours: <b>\(inTime) of \(figures.consumption.count - before)</b> (from the journal of refund-cost respond)."
        if before > 0 {
            text +=
                " \(T.counted(before, "more request")) had \(before == 1 ? "its" : "their") 12 hours end before the journal began: "
                + "missed, but not on respond's watch (answer_state missed, before_journal true)."
        }
        text += "</p>\n"
        text += earned(figures)
        let attention = figures.consumption.filter(\.needsAttention)
        guard !attention.isEmpty else {
            return text + "<p>No refund request needs attention.</p>\n"
        }
        text +=
            "<h3>Requests that need attention</h3>\n<p>\(T.counted(attention.count, "request")): \(states(attention))"
            + (attention.count > listed ? "; the first \(listed) by signing time" : "")
            + ". Every request, with what the journal says of it, is in consumption_requests.csv.</p>\n"
        text +=
            "<div class=\"scroll\"><table><tr><th>request</th><th>transaction</th><th>signed</th><th>what the journal says</th><th class=\"n\">Apple error</th></tr>\n"
        for request in attention.sorted(by: { ($0.signedAt, $0.notificationUUID) < ($1.signedAt, $1.notificationUUID) })
            .prefix(listed)
        {
            let answered = request.answered
            text +=
                "<tr><td>\(T.escape(request.notificationUUID))</td><td>\(T.escape(request.transactionID ?? ""))</td><td class=\"d\">\(request.signedAt)</td><td>\(T.escape(answered?.state ?? "none"))</td><td class=\"n\">\(answered?.appleErrorCode.map(String.init) ?? "")</td></tr>\n"
        }
        return text + "</table></div>\n"
    }

    /// What answering earned: Apple's decisions after each answer sent, the money on each side,
    /// and how Apple decided the requests that got no answer, to read the difference against.
    static func earned(_ figures: ReportFigures) -> String {
        typealias T = PageText
        guard let answering = figures.answering, answering.answered > 0 else { return "" }
        let currency = figures.currency
        let credited = answering.declined - answering.declinedAgainstAnswer
        var text = "<h3>What answering earned</h3>\n"
        text +=
            "<p>Answering saved <b>\(T.money(answering.priceKept)) \(currency)</b>: Apple declined \(T.counted(credited, "refund")) after an answer that preferred a decline, and the purchases kept their price. "
        if answering.declinedAgainstAnswer > 0 {
            text +=
                "Apple also declined \(answering.declinedAgainstAnswer) after an answer that asked it to grant the refund (\(T.money(answering.priceKeptAgainstAnswer)) \(currency) kept, not by the answer's doing). "
        }
        let pending = answering.answered - answering.decided - answering.decidedBeforeAnswer
        text +=
            "It granted \(answering.granted) (\(T.money(answering.priceRefunded)) \(currency) refunded, on purchases whose delivery had already cost \(T.money(answering.deliveryCostRefunded)) \(currency)); "
            + "\(pending) \(pending == 1 ? "has" : "have") no decision yet. "
            + "Of the \(answering.decided) decided after the answer, Apple decided <b>\(answering.decidedAsPreferred)</b> as the answer preferred."
        if answering.decidedBeforeAnswer > 0 {
            text +=
                " \(T.counted(answering.decidedBeforeAnswer, "answer")) went out after Apple had decided, and count for nothing here."
        }
        text += "</p>\n"
        text +=
            "<div class=\"scroll\"><table><tr><th>preference sent</th><th class=\"n\">Apple granted</th><th class=\"n\">Apple declined</th><th class=\"n\">no decision yet</th><th class=\"n\">decided before the answer</th></tr>\n"
        for decision in answering.decisions {
            text +=
                "<tr><td>\(T.escape(T.words(decision.preference.rawValue)))</td><td class=\"n\">\(decision.granted)</td><td class=\"n\">\(decision.declined)</td><td class=\"n\">\(decision.pending)</td><td class=\"n\">\(decision.decidedBeforeAnswer)</td></tr>\n"
        }
        let baseline = answering.baseline
        text +=
            "<tr><td>no answer (the same reasons and months)</td><td class=\"n\">\(baseline.granted)</td><td class=\"n\">\(baseline.declined)</td><td class=\"n\">\(baseline.pending)</td><td class=\"n\"></td></tr>\n"
        text += "</table></div>\n"
        text +=
            "<p class=\"muted\">The requests that got no answer, of the reasons and months of those answered, show how Apple decides without one: "
            + "it declined \(baseline.declined) of the \(baseline.decided) of them it decided, and \(answering.declined) of the \(answering.decided) answered ones it decided after the answer. "
            + "The comparison shows a difference; it does not prove the answer made it, since the requests that got no answer differ in other ways too "
            + "(no consent, a refusal, an answer not sent in time).</p>\n"
        if answering.priceUnknown > 0 {
            text +=
                "<p class=\"muted\">\(T.counted(answering.priceUnknown, "decided request")) without a price in the data \(answering.priceUnknown == 1 ? "is" : "are") left out of these sums.</p>\n"
        }
        return text
            + "<p class=\"muted\">Each request's answer and Apple's decision: sent_preference, decided_as_preferred, price_kept, price_refunded and decided_before_answer in consumption_requests.csv.</p>\n"
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
