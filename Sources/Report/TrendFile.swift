import Attribution
import Support

/// `trend.csv`: cost by month and class, from the first month with cost up to the window's
/// end, every class of every month (zeros included, so a chart has no gaps).
///
/// Months before the window are classified with the App Store data known at the as-of time,
/// so they can differ from the report that closed them: a refund signed later turns their
/// paid rows into after_refund.
enum TrendFile {
    static let file = OutputFile(
        "trend.csv",
        [("month", .text), ("class", .text), ("currency", .text), ("cost", .money)])

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/" + Self.file.name, header: Self.file.header)
        for month in figures.trend {
            for costClass in CostClass.allCases {
                file.text(month.month.description)
                file.text(costClass.reportName)
                file.text(figures.currency.description)
                file.money(month.classes[costClass])
                try file.endRow()
            }
        }
        try file.commit()
    }
}
