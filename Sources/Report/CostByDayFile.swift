import Attribution
import Support

/// `cost_by_day.csv`: rows and cost per day, category and class, sorted in that order.
enum CostByDayFile {
    static let file = OutputFile(
        "cost_by_day.csv",
        [("day", .date), ("category", .text), ("class", .text), ("currency", .text), ("rows", .count), ("cost", .money)])

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/" + Self.file.name, header: Self.file.header)
        for row in figures.costByDay {
            file.date(CivilDate(dayNumber: row.day))
            file.text(row.category)
            file.text(row.costClass.reportName)
            file.text(figures.currency.description)
            file.integer(row.rows)
            file.money(row.cost)
            try file.endRow()
        }
        try file.commit()
    }
}
