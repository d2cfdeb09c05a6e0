internal import CSQLite
import Report
import Support

/// SQLite, the embedded default: one file, nothing to run.
///
/// Money is stored as integer
/// micro-units (SQLite has no exact decimal), and each table has a view `TABLE_decimal` with
/// the same columns where money reads in the currency's units, for charts.
final class SQLiteDatabase: PublishDatabase {
    package let kind = "SQLite"
    private let connection: OpaquePointer
    private let path: String

    package init(path: String) throws(DatabaseError) {
        self.path = path
        // SQLite creates the file, not its folder, and says only "unable to open database file".
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let folder = String(path[..<slash])
            guard FileSystem.isDirectory(folder) else {
                throw DatabaseError(
                    "could not open the SQLite database \(path): the folder \(folder) does not exist; create it, or give another path"
                )
            }
        }
        var made: OpaquePointer?
        let status = sqlite3_open_v2(path, &made, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard status == SQLITE_OK, let made else {
            let message = made.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open it"
            sqlite3_close(made)
            throw DatabaseError("could not open the SQLite database \(path): \(message)")
        }
        connection = made
        // Another publish (or a dashboard's read) may hold the file for a moment.
        sqlite3_busy_timeout(connection, 30_000)
    }

    deinit { sqlite3_close(connection) }

    package func begin() throws(DatabaseError) {
        // IMMEDIATE takes the write lock now, so two publishes run one after the other.
        try execute("BEGIN IMMEDIATE")
    }

    package func commit() throws(DatabaseError) { try execute("COMMIT") }

    func rollback() { try? execute("ROLLBACK") }

    package func columns(of table: String) throws(DatabaseError) -> [(name: String, type: String)]? {
        let statement = try prepare("SELECT name, type FROM pragma_table_info(?1) ORDER BY cid")
        defer { sqlite3_finalize(statement) }
        refund_cost_sqlite_bind_text(statement, 1, table, -1)
        var found: [(name: String, type: String)] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure() }
            found.append((text(statement, 0), text(statement, 1)))
        }
        return found.isEmpty ? nil : found
    }

    func typeName(_ kind: ColumnKind) -> String { kind.sqliteType }

    func deleteRows(of table: String, label: String) throws(DatabaseError) -> Int {
        let statement = try prepare("DELETE FROM \(table) WHERE label = ?1")
        defer { sqlite3_finalize(statement) }
        refund_cost_sqlite_bind_text(statement, 1, label, -1)
        guard sqlite3_step(statement) == SQLITE_DONE else { throw failure() }
        return Int(sqlite3_changes(connection))
    }

    package func loader(for table: String, columns: [OutputTable.Column]) throws(DatabaseError) -> any RowLoader {
        let names = columns.map(\.name).joined(separator: ", ")
        let places = (1...columns.count).map { "?\($0)" }.joined(separator: ", ")
        let statement = try prepare("INSERT INTO \(table) (\(names)) VALUES (\(places))")
        return InsertLoader(database: self, statement: statement)
    }

    /// `TABLE_decimal`: every column, money in the currency's units, booleans as true/false.
    ///
    /// The table keeps the exact integers; sum those for totals.
    func tableReady(_ table: String, columns: [OutputTable.Column]) throws(DatabaseError) {
        let shown = columns.map { column -> String in
            switch column.kind {
            case .money: "\(column.name) / 1000000.0 AS \(column.name)"
            case .boolean: "CASE \(column.name) WHEN 1 THEN 'true' WHEN 0 THEN 'false' END AS \(column.name)"
            default: column.name
            }
        }
        try execute("DROP VIEW IF EXISTS \(table)_decimal")
        try execute("CREATE VIEW \(table)_decimal AS SELECT \(shown.joined(separator: ", ")) FROM \(table)")
    }

    // MARK: Statements

    package func execute(_ sql: String) throws(DatabaseError) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(connection, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(connection))
            sqlite3_free(message)
            throw DatabaseError("\(path): \(text)")
        }
    }

    fileprivate func prepare(_ sql: String) throws(DatabaseError) -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure()
        }
        return statement
    }

    fileprivate func failure() -> DatabaseError {
        DatabaseError("\(path): \(String(cString: sqlite3_errmsg(connection)))")
    }

    private func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
    }
}

/// One prepared INSERT, bound and stepped per row, inside the publish's transaction.
private final class InsertLoader: RowLoader {
    private let database: SQLiteDatabase
    private let statement: OpaquePointer

    init(database: SQLiteDatabase, statement: OpaquePointer) {
        self.database = database
        self.statement = statement
    }

    deinit { sqlite3_finalize(statement) }

    func add(_ row: [FieldValue]) throws(DatabaseError) {
        sqlite3_reset(statement)
        for (offset, value) in row.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .null: sqlite3_bind_null(statement, index)
            case .text(let text): refund_cost_sqlite_bind_text(statement, index, text, -1)
            case .integer(let number, _): sqlite3_bind_int64(statement, index, number)
            case .real(let number, _): sqlite3_bind_double(statement, index, number)
            }
        }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw database.failure() }
    }

    func finish() throws(DatabaseError) {}
}
