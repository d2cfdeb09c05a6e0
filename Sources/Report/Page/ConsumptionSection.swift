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
        var preferences: [RefundPreference: Int] = [:]
        var late = 0
        var consented = 0
        for request in figures.consumption {
            let reason = request.reason.map(T.words) ?? "no reason given"
            var cell = cells[reason]?[request.outcome] ?? (0, .zero)
            cell.count += 1
            cell.cost = try cell.cost.adding(request.deliveredCost)
            cells[reason, default: [:]][request.outcome] = cell
            preferences[request.preference, default: 0] += 1
            if request.pastRespondBy { late += 1 }
            if request.consented { consented += 1 }
        }
        text +=
            "<table><tr><th>reason</th><th class=\"n\">granted</th><th class=\"n\">declined</th><th class=\"n\">pending</th><th class=\"n\">delivered cost (\(figures.currency))</th></tr>\n"
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
        text += "</table>\n<p class=\"muted\">What the evidence supports: "
        text += RefundPreference.allCases.map { "\(T.words($0.rawValue)) \(preferences[$0] ?? 0)" }.joined(separator: ", ")
        text +=
            ". \(consented) of \(figures.consumption.count) customers consented to share consumption data (only those answers can be sent, in consumption_responses.jsonl); "
        text +=
            "\(late) past the 12-hour answer window as of \(figures.window.asOf.civilDate). See consumption_requests.csv.</p>\n"
        return text
    }
}
