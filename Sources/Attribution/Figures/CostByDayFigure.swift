import Support

/// Rows and cost of one day, category and class of the window, in the report currency:
/// `cost_by_day.csv` and the page's daily charts, sorted by day, category (bytes), class.
package struct CostByDayFigure: Sendable {
    package var day: Int64
    package var category: String
    package var costClass: CostClass
    package var rows: Int
    package var cost: Money

    static func all(_ totals: AttributionTotals) -> [CostByDayFigure] {
        let categories = totals.categories
        return totals.byDay.map { key, cell in
            CostByDayFigure(
                day: key.day, category: categories.key(key.category), costClass: key.costClass, rows: cell.rows,
                cost: cell.cost)
        }
        .sorted { a, b in
            if a.day != b.day { return a.day < b.day }
            if a.category != b.category { return a.category.bytesPrecede(b.category) }
            return a.costClass < b.costClass
        }
    }
}
