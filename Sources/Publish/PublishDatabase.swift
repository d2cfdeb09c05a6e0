import Report

/// A database `publish` loads a report into.
///
/// Everything between `begin` and `commit` is one
/// transaction: a dashboard sees the previous month or the new one, never half of one.
package protocol PublishDatabase: AnyObject {
    /// `PostgreSQL` or `SQLite`, for messages.
    var kind: String { get }
    /// Starts the transaction, and waits for any other publish into the same database to end.
    func begin() throws(DatabaseError)
    func commit() throws(DatabaseError)
    /// Undoes everything since `begin`; never fails loudly (the first error is what matters).
    func rollback()
    /// The table's columns and their type names, in order; nil when there is no such table.
    func columns(of table: String) throws(DatabaseError) -> [(name: String, type: String)]?
    /// The type name `columns(of:)` reports for a column of this kind.
    func typeName(_ kind: ColumnKind) -> String
    /// Runs one statement that takes no parameters and returns no rows.
    func execute(_ sql: String) throws(DatabaseError)
    /// Removes the rows of one report (a republish replaces them); how many there were.
    func deleteRows(of table: String, label: String) throws(DatabaseError) -> Int
    /// Starts loading rows into `columns` of the table.
    func loader(for table: String, columns: [OutputTable.Column]) throws(DatabaseError) -> any RowLoader
    /// Brings the database's own helpers for the table up to date with its columns (SQLite's
    /// view in decimal); runs after the table has all of them.
    func tableReady(_ table: String, columns: [OutputTable.Column]) throws(DatabaseError)
}

extension PublishDatabase {
    /// Creates the table with `columns`, and an index on `label` (every publish deletes by it).
    func create(_ table: String, columns: [OutputTable.Column]) throws(DatabaseError) {
        let list = columns.map { column in
            "\(column.name) \(typeName(column.kind))"
                + (column.name == "label" || column.name == "published_at" ? " NOT NULL" : "")
        }
        try execute("CREATE TABLE \(table) (\(list.joined(separator: ", ")))")
        try execute("CREATE INDEX \(table)_label ON \(table) (label)")
    }

    func addColumn(_ column: OutputTable.Column, to table: String) throws(DatabaseError) {
        try execute("ALTER TABLE \(table) ADD COLUMN \(column.name) \(typeName(column.kind))")
    }
}

/// Rows going into one table, in the order of the loader's columns.
package protocol RowLoader: AnyObject {
    func add(_ row: [FieldValue]) throws(DatabaseError)
    /// Every row is in; errors the database held back (PostgreSQL's COPY) surface here.
    func finish() throws(DatabaseError)
}

/// What a database said when it refused something.
package struct DatabaseError: Error, CustomStringConvertible {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
