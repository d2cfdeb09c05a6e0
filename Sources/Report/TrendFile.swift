import Attribution
import Support

/// `trend.csv`: cost by month and class, from the first month with cost up to the window's
/// end, every class of every month (zeros included, so a chart has no gaps).
///
/// Months before the window are classified with the App Store data known at the as-of time,
/// so they can differ from the report that closed them: a refund signed later turns their
/// paid rows into after_refund.
enum TrendFile {
    static let header = ["month", "class", "currency", "cost"]

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/trend.csv", header: header)
        for (month, classes) in try months(figures) {
            for costClass in CostClass.allCases {
                file.text(month.description)
                file.text(costClass.reportName)
                file.text(figures.currency.description)
                file.money(classes[costClass])
                try file.endRow()
            }
        }
        try file.commit()
    }

    /// Every month from the first with cost (or the window's first) to the window's last.
    static func months(_ figures: ReportFigures) throws -> [(month: CivilMonth, classes: ClassCosts)] {
        let byMonth = try figures.totals.costByMonth()
        let windowFirst = CivilMonth(figures.window.start)
        let last = CivilMonth(Timestamp(milliseconds: figures.window.end.milliseconds - 1))
        let first = min(byMonth.keys.min() ?? windowFirst, windowFirst)
        return (first.number...max(first.number, last.number)).map { number in
            let month = CivilMonth(number: number)
            return (month, byMonth[month] ?? ClassCosts())
        }
    }
}
