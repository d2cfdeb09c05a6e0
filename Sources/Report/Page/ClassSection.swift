import Attribution
import Support

/// Cost by class: the daily chart and the table of where the money went.
enum ClassSection {
    static let colors: [CostClass: String] = [
        .paid: "#2e7d32", .familyShared: "#81c784", .premature: "#f9a825", .afterRefund: "#c62828",
        .afterFamilyExit: "#ef6c00", .afterExpiry: "#8d6e63", .unentitled: "#90a4ae", .unlinked: "#455a64",
        .billingGrace: "#7e57c2", .unknownOwnership: "#b0bec5",
    ]

    static let explanations: [CostClass: String] = [
        .paid: "served to the account that paid",
        .familyShared: "served to family members on the purchaser's payment",
        .billingGrace: "served in a billing grace period that ended without payment",
        .premature: "served before Apple issued the member's transaction",
        .afterRefund: "served after a refund ended the access",
        .afterFamilyExit: "served after a member left the family",
        .afterExpiry: "served after a subscription lapsed",
        .unentitled: "known account, no access at the time (free use)",
        .unlinked: "account no purchase belongs to",
        .unknownOwnership: "under a transaction whose ownership (inAppOwnershipType) Apple added after this version",
    ]

    static func color(_ costClass: CostClass) -> String { colors[costClass] ?? "#999" }

    /// The classes the page shows: every one, but unknown_ownership only when data of a later
    /// App Store version put cost there.
    static func shown(_ figures: ReportFigures) -> [CostClass] {
        CostClass.ruleOrder.filter { $0 != .unknownOwnership || figures.total.classes[$0] != .zero }
    }

    static func html(_ figures: ReportFigures) throws -> String {
        let chart = dailyChart(figures, classes: shown(figures), name: "cost-by-day", unit: "per day")
        return "<h2>Cost by class per day</h2>\n<div class=\"panel\">" + chart.svg + chart.legend + "</div>\n"
            + (try table(figures))
    }

    /// Stacked bars per day of the window for `classes`.
    static func dailyChart(_ figures: ReportFigures, classes: [CostClass], name: String, unit: String) -> StackedBarChart {
        let firstDay = figures.window.start.dayNumber
        let days = max(1, Int(figures.window.end.dayNumber - firstDay))
        var perDay = Array(repeating: [Int64](repeating: 0, count: classes.count), count: days)
        for row in figures.costByDay {
            let index = Int(row.day - firstDay)
            guard index >= 0 && index < days, let position = classes.firstIndex(of: row.costClass) else { continue }
            perDay[index][position] += row.cost.nanos
        }
        let currency = figures.currency.description
        let start = figures.window.start.civilDate
        let spansMonths =
            CivilMonth(figures.window.start) != CivilMonth(Timestamp(milliseconds: figures.window.end.milliseconds - 1))
        return StackedBarChart(
            name: name, description: "\(classes.map(PageText.words).joined(separator: ", ")) cost per day",
            series: classes.map { .init(name: PageText.words($0), color: color($0)) },
            bars: perDay.enumerated().map { index, values in
                let date = CivilDate(dayNumber: firstDay + Int64(index))
                return .init(
                    label: spansMonths ? "\(date.month)/\(date.day)" : "\(date.day)", fullLabel: "\(date)", values: values)
            }, currency: currency, unit: "\(currency) \(unit)",
            axisTitle: spansMonths ? "day (month/day), \(start.year)" : "day of \(PageText.monthName(CivilMonth(start)))",
            marked: nil)
    }

    private static func table(_ figures: ReportFigures) throws -> String {
        typealias T = PageText
        let all = figures.total
        let total = try all.classes.total()
        var text =
            "<h2>Where the money went</h2>\n<div class=\"scroll\"><table><tr><th>class</th><th class=\"meaning\">meaning</th><th class=\"n\">\(figures.currency)</th><th class=\"n\">share</th></tr>\n"
        for costClass in shown(figures) {
            let value = all.classes[costClass]
            text +=
                "<tr><td><span class=\"swatch\" style=\"background:\(color(costClass))\"></span>\(T.words(costClass))</td><td class=\"meaning\">\(explanations[costClass] ?? "")</td><td class=\"n\">\(T.money(value))</td><td class=\"n\">\(T.percent(value.nanos, of: total.nanos))</td></tr>\n"
        }
        return text
            + "<tr><th>total</th><th class=\"meaning\"></th><th class=\"n\">\(T.money(total))</th><th class=\"n\">100%</th></tr></table></div>\n"
    }
}
