import Ingest
import Support

/// What a publish loaded.
package struct PublishOutcome: Sendable {
    package let label: String
    /// The database as messages show it (no password).
    package let database: String
    /// Each table of the report and the rows loaded into it, in load order (`refund_cost_runs`,
    /// which gets one row of its own, is not among them).
    package let tables: [(table: String, rows: Int)]
    /// Rows of the same label there were before: a republish replaced them.
    package let replacedRows: Int
    /// `table.column` for each column added to an existing table.
    package let addedColumns: [String]

    /// The report's rows, as `refund_cost_runs.rows_published` records them.
    package var rows: Int { tables.reduce(0) { $0 + $1.rows } }
}

/// `publish`: a finished report folder into a database, in one transaction.
///
/// Every table is checked (created, or given the columns a later version added) and the
/// label's old rows deleted before the new ones go in; any error rolls it all back, so the
/// database holds the previous state of the month or the new one, never a mix.
package enum PublishRun {
    package static func publish(
        report folder: String, to url: DatabaseURL, now: Timestamp = Clock.now()
    ) throws(PublishError) -> PublishOutcome {
        let report = try PublishedReport(folder: folder)
        let database: any PublishDatabase
        do { database = try url.open() } catch { throw PublishError("\(error.message)") }
        do { try database.begin() } catch { throw PublishError("\(url.shown): \(error.message)") }
        do {
            let outcome = try load(report, into: database, shown: url.shown, publishedAt: now.description)
            try database.commit()
            return outcome
        } catch let error as PublishError {
            database.rollback()
            throw error
        } catch let error as DatabaseError {
            database.rollback()
            throw PublishError("\(url.shown): \(error.message)")
        } catch {
            database.rollback()
            throw PublishError("\(error)")
        }
    }

    private static func load(
        _ report: PublishedReport, into database: any PublishDatabase, shown: String, publishedAt: String
    ) throws -> PublishOutcome {
        let every = OutputTables.all + [OutputTables.runs]
        var added: [String] = []
        for table in every {
            added += try TableShape.prepare(table, in: database).map { table.table + "." + $0 }
            try database.tableReady(table.table, columns: table.tableColumns)
        }
        var replaced = 0
        var loaded: [(table: String, rows: Int)] = []
        let context = RowContext(report: report, publishedAt: publishedAt)
        for table in OutputTables.all {
            replaced += try database.deleteRows(of: table.table, label: report.label)
            let loader = try database.loader(for: table.table, columns: table.tableColumns)
            let path = report.folder + "/" + table.file
            // A report of an earlier version has no such file: the table holds no rows of it.
            let rows =
                !FileSystem.exists(path) && table.predates(report.version)
                ? 0
                : table.isJSONLines
                    ? try ReportFileRows.jsonLines(path, table: table, context: context, into: loader)
                    : try ReportFileRows.csv(path, table: table, context: context, into: loader)
            try loader.finish()
            loaded.append((table.table, rows))
        }
        let runs = OutputTables.runs
        let loader = try database.loader(for: runs.table, columns: runs.tableColumns)
        let tables = JSONValue.object(loaded.map { ($0.table, .integer(Int64($0.rows))) }).compact
        let total = loaded.reduce(0) { $0 + $1.rows }
        try loader.add(
            context.row(
                for: runs,
                fields: [
                    .text(report.periodStart), .text(report.periodEnd), report.asOf.isEmpty ? .null : .text(report.asOf),
                    .text(report.version), .text(report.inputs), .text(tables), .integer(Int64(total), text: String(total)),
                    .text(report.runJSON),
                ]))
        try loader.finish()
        for view in LatestViews.all { try view.create(in: database) }
        return PublishOutcome(
            label: report.label, database: shown, tables: loaded, replacedRows: replaced, addedColumns: added)
    }
}

/// The values every row gets beside its file's own.
struct RowContext {
    let report: PublishedReport
    let publishedAt: String

    /// `fields` (in the file's column order, padded with NULL for columns the file does not
    /// have) wrapped in the label, the window when the file has none, and `published_at`.
    func row(for table: OutputTable, fields: [FieldValue]) -> [FieldValue] {
        var row: [FieldValue] = [.text(report.label)]
        row.reserveCapacity(table.tableColumns.count)
        if table.addsWindow {
            row += [.text(report.periodStart), .text(report.periodEnd)]
        }
        row += fields
        if fields.count < table.columns.count {
            row += Array(repeating: .null, count: table.columns.count - fields.count)
        }
        row.append(.text(publishedAt))
        return row
    }
}
