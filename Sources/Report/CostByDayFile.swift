import Attribution
import Support

/// `cost_by_day.csv`: rows and cost per day, category and class, sorted in that order.
enum CostByDayFile {
    static let header = ["day", "category", "class", "currency", "rows", "cost"]

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/cost_by_day.csv", header: header)
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
