/// What a column of an output file holds: how it is written, and its type in a database.
///
/// Money is exact everywhere it goes; ids are text, never numbers: a 16-digit transaction id
/// does not survive a double.
package enum ColumnKind: Sendable, Hashable {
    case text
    case money
    case count
    /// `refund_rate`: four decimals.
    case rate
    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, UTC.
    case timestamp
    case date
    case boolean
    /// A JSON document (a consumption answer's body, run.json).
    case json
}

/// One file a report writes, declared once: its name and its columns with their kinds.
///
/// The writer's header, the database table `publish` loads it into, `report --help`'s list and
/// the check against the docs all read this declaration.
package struct OutputFile: Sendable, Hashable {
    package struct Column: Sendable, Hashable {
        package let name: String
        package let kind: ColumnKind
    }

    /// The file in the report folder (`summary.csv`).
    package let name: String
    /// In the file's order; columns are only ever added at the end.
    package let columns: [Column]
    /// JSON lines, one object a line, instead of CSV (`consumption_responses.jsonl`).
    package let isJSONLines: Bool
    /// The version that first wrote the file (nil: it was there from the start): a folder of an
    /// earlier version has none.
    package let addedIn: String?
    /// Columns written only with an option (consumption requests' journal columns): a file
    /// written without it lacks them, wherever they stand.
    package let optionalColumns: Set<String>

    package init(
        _ name: String, _ columns: [(String, ColumnKind)], jsonLines: Bool = false, addedIn: String? = nil,
        optionalColumns: Set<String> = []
    ) {
        self.name = name
        self.columns = columns.map { Column(name: $0.0, kind: $0.1) }
        isJSONLines = jsonLines
        self.addedIn = addedIn
        self.optionalColumns = optionalColumns
    }

    /// The CSV header: the columns' names.
    package var header: [String] { columns.map(\.name) }

    /// The same file without the columns named (`totals.csv` is `summary.csv` without `product_id`).
    ///
    /// A file of a later version than this one says so (`addedIn`).
    package func named(_ name: String, without left: Set<String>, addedIn later: String? = nil) -> OutputFile {
        OutputFile(
            name, columns.filter { !left.contains($0.name) }.map { ($0.name, $0.kind) }, jsonLines: isJSONLines,
            addedIn: later ?? addedIn)
    }
}
