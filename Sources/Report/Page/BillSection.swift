import Attribution
import Support

/// The cloud bill, when the data holds one: how much of it was spread over the app's users,
/// and every part that was not, with the reason, so a finance lead sees what the classes leave
/// out before closing on them.
enum BillSection {
    static func html(_ figures: ReportFigures) -> String {
        guard let allocation = figures.allocation else { return "" }
        typealias T = PageText
        func amounts(_ totals: CostTotals) -> String {
            let sorted = totals.sorted
            return sorted.isEmpty ? "0" : sorted.map { "\(T.money($0.amount)) \($0.currency)" }.joined(separator: " + ")
        }
        var text = "<h2>Cloud bill</h2>\n"
        text +=
            "<p>\(T.counted(allocation.poolRows, "pool row")) of \(T.escape(allocation.poolFiles.joined(separator: ", "))): "
            + "\(amounts(allocation.read)) billed, \(amounts(allocation.allocated)) spread over the usage of the app's users "
            + "(and so in the classes above), \(amounts(allocation.unallocated)) not spread.</p>\n"
        let left = allocation.lines.filter { !$0.allocated }
        guard !left.isEmpty else { return text }
        text +=
            "<div class=\"scroll\"><table><tr><th>day</th><th>service</th><th>charge</th><th>why not spread</th>"
            + "<th class=\"n\">rows</th><th class=\"n\">cost</th></tr>\n"
        for line in left {
            text +=
                "<tr><td>\(CivilDate(dayNumber: line.day))</td><td>\(T.escape(line.serviceName))</td>"
                + "<td>\(T.escape(line.chargeCategory))</td><td>\(T.escape(line.reason))</td>"
                + "<td class=\"n\">\(T.count(line.poolRows))</td><td class=\"n\">\(T.money(line.cost)) \(line.currency)</td></tr>\n"
        }
        return text + "</table></div>\n<p class=\"muted\">allocation.csv lists every pool row, spread or not.</p>\n"
    }
}
