import Report

/// One output file as a database table: its name, and its columns in the file's order.
package struct OutputTable: Sendable {
    package struct Column: Sendable, Hashable {
        package let name: String
        package let kind: ColumnKind
    }

    /// The file in the report folder (`summary.csv`).
    package let file: String
    /// `refund_cost_` and the file's name without its extension.
    package let table: String
    /// The file's columns, in order, as this version writes them.
    ///
    /// A folder written by an earlier version may hold fewer (columns are only ever added at
    /// the end); the missing ones load as NULL.
    package let columns: [Column]
    /// The file is JSON lines, not CSV (`consumption_responses.jsonl`).
    package let isJSONLines: Bool
    /// The version that first wrote the file; a folder of an earlier version has none, and the
    /// table gets no rows from it.
    package let addedIn: String?
    /// Columns a file may lack wherever they stand: written only with an option.
    package let optionalColumns: Set<String>
    /// The file has no window columns of its own, so every row gets `period_start` and `period_end`.
    let addsWindow: Bool
    /// The columns every row gets beside the file's own: which report it came from, its window
    /// (when the file has no such columns) and when it was published.
    ///
    /// Worked out once: every row of the file is laid out by it.
    let tableColumns: [Column]

    /// The table of a file the report declares.
    init(file: OutputFile) {
        self.init(
            file.name, file.columns.map { ($0.name, $0.kind) }, jsonLines: file.isJSONLines, addedIn: file.addedIn,
            optionalColumns: file.optionalColumns)
    }

    init(
        _ file: String, _ columns: [(String, ColumnKind)], jsonLines: Bool = false, addedIn: String? = nil,
        optionalColumns: Set<String> = []
    ) {
        self.file = file
        self.addedIn = addedIn
        self.optionalColumns = optionalColumns
        let stem = file.split(separator: ".").first.map(String.init) ?? file
        table = "refund_cost_" + stem
        let own = columns.map { Column(name: $0.0, kind: $0.1) }
        self.columns = own
        isJSONLines = jsonLines
        addsWindow = !own.contains { $0.name == "period_start" }
        let window = addsWindow ? [Column(name: "period_start", kind: .date), Column(name: "period_end", kind: .date)] : []
        tableColumns = [Column(name: "label", kind: .text)] + window + own + [Column(name: "published_at", kind: .timestamp)]
    }
}

extension OutputTable {
    /// True when a report of `version` was written before this file existed.
    package func predates(_ version: String) -> Bool {
        guard let addedIn else { return false }
        func parts(_ text: String) -> [Int] { text.split(separator: ".").map { Int($0) ?? 0 } }
        return parts(version).lexicographicallyPrecedes(parts(addedIn))
    }
}
