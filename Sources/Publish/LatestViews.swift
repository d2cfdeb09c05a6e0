/// Views that give one answer per month where a table's rows repeat across labels.
///
/// Every report's `trend.csv` holds all months up to its window's end, so `refund_cost_trend`
/// holds August once for each label published since: summing it by month counts August as
/// often. `refund_cost_trend_latest` keeps each month's rows from the latest label holding
/// that month (the latest window's end, then the greatest label): the month as the newest
/// data classifies it.
struct LatestViews {
    /// The table whose rows repeat across labels, and what makes one of its rows (besides the label).
    let table: OutputTable
    let key: [String]

    static let all = [LatestViews(table: OutputTables.trend, key: ["month", "class", "currency"])]

    var view: String { table.table + "_latest" }

    /// The view's query: a row is kept when no later label holds a row of the same key.
    var query: String {
        let same = key.map { "later.\($0) = kept.\($0)" }.joined(separator: " AND ")
        return "SELECT kept.* FROM \(table.table) kept WHERE NOT EXISTS (SELECT 1 FROM \(table.table) later WHERE \(same) "
            + "AND (later.period_end > kept.period_end OR (later.period_end = kept.period_end AND later.label > kept.label)))"
    }

    /// Made again on every publish (its table may have gained columns), with the database's
    /// own helpers for it (SQLite's view in decimal), as every table has.
    func create(in database: any PublishDatabase) throws(DatabaseError) {
        try database.execute("DROP VIEW IF EXISTS \(view)_decimal")
        try database.execute("DROP VIEW IF EXISTS \(view)")
        try database.execute("CREATE VIEW \(view) AS \(query)")
        try database.tableReady(view, columns: table.tableColumns)
    }
}
