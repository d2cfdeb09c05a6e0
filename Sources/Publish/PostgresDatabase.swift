internal import CLibPQ
import Glibc
import Report

/// PostgreSQL through libpq.
///
/// The URL goes to libpq as it is, so the password may come from it,
/// from `PGPASSWORD`, or from `~/.pgpass` or `PGPASSFILE`, as for `psql`. Rows are loaded with
/// `COPY ... FROM STDIN`, the fastest way in.
final class PostgresDatabase: PublishDatabase {
    package let kind = "PostgreSQL"
    private let connection: OpaquePointer

    /// Connects; `shownURL` (the URL without its password) is what an error names.
    package init(url: String, shownURL: String) throws(DatabaseError) {
        let keywords = ["dbname", "fallback_application_name"]
        let values = [url, "refund-cost"]
        let made = keywords.withCStrings { keywordPointers in
            values.withCStrings { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let made else { throw DatabaseError("could not connect to \(shownURL): out of memory") }
        guard PQstatus(made) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(made)).trimmedLines
            PQfinish(made)
            throw DatabaseError("could not connect to \(shownURL): \(message)")
        }
        connection = made
        refund_cost_pq_quiet(connection)
    }

    deinit { PQfinish(connection) }

    package func begin() throws(DatabaseError) {
        try execute("BEGIN")
        // One publish at a time per database: a second waits here until the first commits.
        try execute("SELECT pg_advisory_xact_lock(7318052816)")
    }

    package func commit() throws(DatabaseError) { try execute("COMMIT") }

    func rollback() { try? execute("ROLLBACK") }

    package func columns(of table: String) throws(DatabaseError) -> [(name: String, type: String)]? {
        let rows = try query(
            """
            SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
            WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
            """, [table])
        return rows.isEmpty ? nil : rows.map { ($0[0], $0[1]) }
    }

    func typeName(_ kind: ColumnKind) -> String { kind.postgresType }

    func deleteRows(of table: String, label: String) throws(DatabaseError) -> Int {
        try withResult("DELETE FROM \(table) WHERE label = $1", [label]) { Int(String(cString: PQcmdTuples($0))) ?? 0 }
    }

    package func loader(for table: String, columns: [OutputTable.Column]) throws(DatabaseError) -> any RowLoader {
        let names = columns.map(\.name).joined(separator: ", ")
        guard let result = PQexec(connection, "COPY \(table) (\(names)) FROM STDIN") else {
            throw DatabaseError(String(cString: PQerrorMessage(connection)).trimmedLines)
        }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COPY_IN else { throw resultError(result) }
        return CopyLoader(connection: connection)
    }

    func tableReady(_ table: String, columns: [OutputTable.Column]) throws(DatabaseError) {}

    // MARK: Statements

    package func execute(_ sql: String) throws(DatabaseError) {
        guard let result = PQexec(connection, sql) else {
            throw DatabaseError(String(cString: PQerrorMessage(connection)).trimmedLines)
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw resultError(result) }
    }

    /// Runs `sql` with text parameters; the rows of the result as text (NULL as "").
    private func query(_ sql: String, _ parameters: [String]) throws(DatabaseError) -> [[String]] {
        try withResult(sql, parameters) { result in
            (0..<PQntuples(result)).map { row in
                (0..<PQnfields(result)).map { String(cString: PQgetvalue(result, row, $0)) }
            }
        }
    }

    /// Runs `sql` with text parameters and hands its successful result to `body`.
    private func withResult<Value>(_ sql: String, _ parameters: [String], _ body: (OpaquePointer) -> Value)
        throws(DatabaseError) -> Value
    {
        let made = parameters.withCStrings { pointers in
            PQexecParams(connection, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
        guard let result = made else { throw DatabaseError(String(cString: PQerrorMessage(connection)).trimmedLines) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw resultError(result) }
        return body(result)
    }

    private func resultError(_ result: OpaquePointer) -> DatabaseError {
        DatabaseError(String(cString: PQresultErrorMessage(result)).trimmedLines)
    }
}

/// Rows as COPY's text format (tab between fields, `\N` for NULL, backslash escapes), sent in
/// blocks of a megabyte.
private final class CopyLoader: RowLoader {
    private let connection: OpaquePointer
    private var buffer: [UInt8] = []

    init(connection: OpaquePointer) {
        self.connection = connection
        buffer.reserveCapacity(1 << 20)
    }

    func add(_ row: [FieldValue]) throws(DatabaseError) {
        for (index, value) in row.enumerated() {
            if index > 0 { buffer.append(0x09) }
            switch value {
            case .null: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
            case .text(let text), .integer(_, let text), .real(_, let text): append(escaped: text)
            }
        }
        buffer.append(0x0A)
        if buffer.count >= 1 << 20 { try send() }
    }

    func finish() throws(DatabaseError) {
        try send()
        guard PQputCopyEnd(connection, nil) == 1 else {
            throw DatabaseError(String(cString: PQerrorMessage(connection)).trimmedLines)
        }
        var failure: DatabaseError?
        while let result = PQgetResult(connection) {
            if PQresultStatus(result) != PGRES_COMMAND_OK, failure == nil {
                failure = DatabaseError(String(cString: PQresultErrorMessage(result)).trimmedLines)
            }
            PQclear(result)
        }
        if let failure { throw failure }
    }

    private func send() throws(DatabaseError) {
        guard !buffer.isEmpty else { return }
        let sent = buffer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(connection, $0.baseAddress, Int32($0.count)) }
        }
        guard sent == 1 else { throw DatabaseError(String(cString: PQerrorMessage(connection)).trimmedLines) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func append(escaped text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x09: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            default: buffer.append(byte)
            }
        }
    }
}

extension [String] {
    /// Calls `body` with a C array of the strings' C copies, alive for the call.
    func withCStrings<Result>(_ body: ([UnsafePointer<CChar>?]) -> Result) -> Result {
        let copies = map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { UnsafePointer($0) } + [nil])
    }
}

extension String {
    /// libpq's messages end in a newline and may span lines; one line reads better after `error:`.
    var trimmedLines: String {
        split(whereSeparator: \.isNewline).map { $0.trimmingCharacters() }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
