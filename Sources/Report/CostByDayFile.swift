import Attribution
import Support

/// `cost_by_day.csv`: rows and cost per day, category and class, sorted in that order.
enum CostByDayFile {
    static let header = ["day", "category", "class", "currency", "rows", "cost"]

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/cost_by_day.csv", header: header)
        let categories = figures.totals.categories
        let rows = figures.totals.byDay.map { (key: $0.key, name: categories.key($0.key.category), cell: $0.value) }
            .sorted { a, b in
                if a.key.day != b.key.day { return a.key.day < b.key.day }
                if a.name != b.name { return a.name.bytesPrecede(b.name) }
                return a.key.costClass < b.key.costClass
            }
        for row in rows {
            file.date(CivilDate(dayNumber: row.key.day))
            file.text(row.name)
            file.text(row.key.costClass.reportName)
            file.text(figures.currency.description)
            file.integer(row.cell.rows)
            file.money(row.cell.cost)
            try file.endRow()
        }
        try file.commit()
    }
}
