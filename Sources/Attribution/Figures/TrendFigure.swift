import Support

/// Cost by month and class, from the first month with cost (or the window's first) to the
/// window's last, every month present (zeros included, so a chart has no gaps): `trend.csv`
/// and the page's leak-by-month table.
package struct TrendFigure: Sendable {
    package var month: CivilMonth
    package var classes: ClassCosts

    static func all(_ totals: AttributionTotals, window: ReportWindow) throws -> [TrendFigure] {
        let byMonth = try totals.costByMonth()
        let windowFirst = CivilMonth(window.start)
        let last = CivilMonth(Timestamp(milliseconds: window.end.milliseconds - 1))
        let first = min(byMonth.keys.min() ?? windowFirst, windowFirst)
        return (first.number...max(first.number, last.number)).map { number in
            let month = CivilMonth(number: number)
            return TrendFigure(month: month, classes: byMonth[month] ?? ClassCosts())
        }
    }
}
