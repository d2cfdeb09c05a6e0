import Attribution
import Support

/// Refund requests (CONSUMPTION_REQUEST): how they ended, what the evidence supports, and
/// the deadline Apple gives for an answer.
enum ConsumptionSection {
    /// A warning at the top of the page when requests went past Apple's 12-hour deadline.
    static func deadlineAlert(_ figures: ReportFigures) -> String {
        let late = figures.consumption.filter(\.pastRespondBy)
        guard !late.isEmpty else { return "" }
        let pending = late.filter { $0.outcome == .pending }.count
        let total = figures.consumption.count
        var text =
            "<p class=\"alert\">\(late.count) of \(PageText.counted(total, "refund request")) passed Apple's 12-hour deadline for consumption information by \(figures.window.asOf.civilDate)"
        text += pending > 0 ? "; \(pending) still \(pending == 1 ? "has" : "have") no decision." : "."
        return text
            + " Apple decides without your data unless your server answered in time: check each in consumption_requests.csv.</p>\n"
    }

    static func html(_ figures: ReportFigures) throws -> String {
        typealias T = PageText
        var text = "<h2>Refund requests (consumption requests)</h2>\n"
        guard !figures.consumption.isEmpty else {
            return text + "<p>No refund request (CONSUMPTION_REQUEST) in this window.</p>\n"
        }
        var cells: [String: [ConsumptionOutcome: (count: Int, cost: Money)]] = [:]
        var late = 0
        var consented = 0
        for request in figures.consumption {
            let reason = request.reason.map(T.words) ?? "no reason given"
            var cell = cells[reason]?[request.outcome] ?? (0, .zero)
            cell.count += 1
            cell.cost = try cell.cost.adding(request.deliveredCost)
            cells[reason, default: [:]][request.outcome] = cell
            if request.pastRespondBy { late += 1 }
            if request.consented { consented += 1 }
        }
        let counts = FigureCounts(figures)
        let outcomes = counts.consumptionByOutcome.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ")
        text +=
            "<p>\(T.counted(counts.consumptionRequests, "refund request")). <b>Apple's decision</b>, as later notifications show it: \(outcomes).</p>\n"
        text +=
            "<table><tr><th>reason</th><th class=\"n\">Apple granted</th><th class=\"n\">Apple declined</th><th class=\"n\">no decision yet</th><th class=\"n\">delivered cost (\(figures.currency))</th></tr>\n"
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
            "</table>\n<p class=\"muted\"><b>This tool's recommendation</b> from the evidence (the refund preference to send Apple, not Apple's decision): "
        text += counts.consumptionByRecommendation.map { "\(T.words($0.0.rawValue)) \($0.1)" }.joined(separator: ", ")
        text +=
            ". \(consented) of \(figures.consumption.count) customers consented to share consumption data (only those answers can be sent, in consumption_responses.jsonl); "
        text +=
            "\(late) past the 12-hour answer window as of \(figures.window.asOf.civilDate). See consumption_requests.csv.</p>\n"
        return text
    }
}
