import Ingest
import Support

/// Reads one output file row by row and hands its checked rows to a loader.
///
/// A file that does not hold what its table expects stops the publish with
/// its path, line, column and value.
enum ReportFileRows {
    /// A CSV file: its header must be the table's columns, less those a file may lack.
    ///
    /// A file may lack the last columns (a file of an earlier version, before columns were added
    /// at the end) and those written only with an option (consumption requests' journal
    /// columns), wherever they stand. What it lacks is loaded as NULL.
    static func csv(_ path: String, table: OutputTable, context: RowContext, into loader: any RowLoader) throws -> Int {
        var positions: [Int]?
        var rows = 0
        try CSVReader.readInOrder(path: path, onBlock: { _ in }) { record in
            guard let positions else {
                positions = try check(header: record.strings, of: table, path: path)
                return
            }
            guard record.count == positions.count else {
                throw PublishError(
                    "\(record.count) fields where the header has \(positions.count)", file: path, line: record.line)
            }
            var fields = [FieldValue](repeating: .null, count: (positions.last ?? -1) + 1)
            for (index, position) in positions.enumerated() {
                let column = table.columns[position]
                let text = record.string(index)
                do throws(FieldValueError) {
                    fields[position] = try FieldValue.checked(text, as: column.kind)
                } catch {
                    throw PublishError("\(column.name) \"\(text)\": \(error.reason)", file: path, line: record.line)
                }
            }
            try loader.add(context.row(for: table, fields: fields))
            rows += 1
        }
        guard positions != nil else { throw PublishError("the file is empty; a report writes at least a header", file: path) }
        return rows
    }

    /// Where each column of `header` is among the table's: the next one, past those the file
    /// may lack.
    private static func check(header: [String], of table: OutputTable, path: String) throws(PublishError) -> [Int] {
        let known = table.columns.map(\.name)
        var positions: [Int] = []
        var next = 0
        for (index, name) in header.enumerated() {
            while next < known.count, known[next] != name, table.optionalColumns.contains(known[next]) { next += 1 }
            guard next < known.count else {
                throw PublishError(
                    "column \(name) is not one this version of refund-cost knows "
                        + "(the folder was written by a later version): publish with that version", file: path, line: 1)
            }
            guard name == known[next] else {
                throw PublishError("column \(index + 1) is \(name), expected \(known[next])", file: path, line: 1)
            }
            positions.append(next)
            next += 1
        }
        return positions
    }

    /// `consumption_responses.jsonl`: `{"transactionId": "...", "body": {...}}` per line.
    static func jsonLines(_ path: String, table: OutputTable, context: RowContext, into loader: any RowLoader) throws
        -> Int
    {
        let bytes: [UInt8]
        do { bytes = try FileDescriptor.readAll(path) } catch { throw PublishError(error.diagnostic.message, file: path) }
        var rows = 0
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.isEmpty { continue }
            var transaction: String?
            var body: String?
            do {
                try line.withUnsafeBytes { raw in
                    var cursor = JSONCursor(raw)
                    try cursor.members { cursor, key in
                        if key == "transactionId" {
                            transaction = try cursor.string()
                        } else if key == "body" {
                            body = String(decoding: try cursor.valueBytes(), as: UTF8.self)
                        } else {
                            try cursor.skip()
                        }
                    }
                    try cursor.finish()
                }
            } catch {
                throw PublishError("not a consumption answer: \(error)", file: path, line: lineNumber)
            }
            guard let transaction, let body else {
                throw PublishError("a consumption answer needs transactionId and body", file: path, line: lineNumber)
            }
            try loader.add(context.row(for: table, fields: [.text(transaction), .text(body)]))
            rows += 1
        }
        return rows
    }
}
