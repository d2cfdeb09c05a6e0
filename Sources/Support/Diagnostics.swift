/// One input line that was refused, with everything a person needs to find and fix it.
package struct Reject: Sendable, Hashable, CustomStringConvertible, Codable {
    package var file: String
    package var line: Int
    package var field: String
    package var value: String
    package var reason: String
    /// How many input rows this reject stands for: 1 for a line, every data row of a file
    /// refused whole (its header cannot be read, it cannot be decompressed), so a refused file
    /// weighs what it would have counted.
    package var rows: Int
    /// The whole file was refused: none of its rows were read.
    package var wholeFile: Bool

    package init(file: String, line: Int, field: String, value: String, reason: String, rows: Int = 1, wholeFile: Bool = false) {
        self.file = file
        self.line = line
        self.field = field
        self.value = value
        self.reason = reason
        self.rows = rows
        self.wholeFile = wholeFile
    }

    /// The input folder the file lies in (`notifications`, `transactions`, `costs`), or the
    /// file's own name for the files at the top of `--data` (`accounts.csv`, ...).
    package var folder: String {
        let parts = file.split(separator: "/", omittingEmptySubsequences: true)
        if parts.count >= 2, ["notifications", "transactions", "costs"].contains(parts[parts.count - 2]) {
            return String(parts[parts.count - 2])
        }
        return parts.last.map(String.init) ?? file
    }

    /// The same reject, standing for every data row of its file (`rows` of them).
    package func refusingFile(rows: Int) -> Reject {
        var whole = self
        whole.rows = rows
        whole.wholeFile = true
        return whole
    }

    /// `path:line: error: field 'cost' = "12,5": reason`, the form compilers use, so editors jump to it.
    package var description: String {
        let shownValue = value.count > 80 ? String(value.prefix(77)) + "..." : value
        let location = line > 0 ? "\(file):\(line)" : file
        if field.isEmpty { return "\(location): error: \(reason)" }
        return "\(location): error: \(field) \"\(shownValue)\": \(reason)"
    }

    /// `rows` was added after the first five: columns are only ever added at the end.
    package static let csvHeader = ["file", "line", "field", "value", "reason", "rows"]
}

/// Collects rejects as they happen: counts them, keeps the first few for the terminal,
/// and streams all of them to `rejects.csv` when a file is given, so memory stays flat.
package final class RejectLog {
    /// Rejects recorded (lines and whole files).
    package private(set) var count = 0
    /// Input rows they stand for: what `--max-rejects` counts.
    package private(set) var rows = 0
    /// Rejected rows by reason.
    package private(set) var countsByReason: [String: Int] = [:]
    /// Files refused whole, in the order they were found: the console names each one.
    package private(set) var wholeFiles: [Reject] = []
    /// Rejected rows by input folder (`Reject.folder`), then by reason.
    package private(set) var reasonsByFolder: [String: [String: Int]] = [:]
    package private(set) var firstRejects: [Reject] = []
    /// Every reject, in order, when the log was asked to keep them all (a ledger snapshot
    /// carries the App Store side's rejects to the merge).
    package private(set) var all: [Reject]?
    private let keep: Int
    private var writer: CSVFileWriter?

    package init(keepingFirst keep: Int = 20, keepingAll: Bool = false) {
        self.keep = keep
        all = keepingAll ? [] : nil
    }

    /// Streams every reject into `path` (written atomically when `commit()` is called).
    package func streamTo(_ path: String) throws(SystemError) {
        writer = try CSVFileWriter(path: path, header: Reject.csvHeader)
    }

    package func record(_ reject: Reject) throws(SystemError) {
        count += 1
        rows += reject.rows
        countsByReason[reject.reason, default: 0] += reject.rows
        if reject.wholeFile { wholeFiles.append(reject) }
        reasonsByFolder[reject.folder, default: [:]][reject.reason, default: 0] += reject.rows
        if firstRejects.count < keep { firstRejects.append(reject) }
        all?.append(reject)
        if let writer {
            writer.text(reject.file)
            writer.integer(reject.line)
            writer.text(reject.field)
            writer.text(reject.value)
            writer.text(reject.reason)
            writer.integer(reject.rows)
            try writer.endRow()
        }
    }

    /// What was found so far.
    package var tally: RejectTally { RejectTally(self) }

    package func commit() throws(SystemError) {
        try writer?.commit()
        writer = nil
    }
}

/// What a reject log found, frozen at the end of reading: how many rejects and rows, the
/// first few, the files refused whole and the reasons, for every command's verdict.
package struct RejectTally: Sendable, Hashable {
    package var lines = 0
    package var rows = 0
    package var samples: [Reject] = []
    package var wholeFiles: [Reject] = []
    package var reasonsByFolder: [String: [String: Int]] = [:]

    package init() {}

    package init(_ log: RejectLog) {
        lines = log.count
        rows = log.rows
        samples = log.firstRejects
        wholeFiles = log.wholeFiles
        reasonsByFolder = log.reasonsByFolder
    }

    /// The App Store folders: what the ledger is built from.
    package static let appStoreFolders: Set<String> = ["notifications", "transactions"]

    package func rows(in folders: Set<String>) -> Int {
        reasonsByFolder.filter { folders.contains($0.key) }.values.reduce(0) { $0 + $1.values.reduce(0, +) }
    }

    /// The reason that refused the most rows among `folders` (all when nil); ties go to the
    /// reason that sorts first, so the message is the same every run.
    package func dominantReason(in folders: Set<String>? = nil) -> (reason: String, rows: Int)? {
        var merged: [String: Int] = [:]
        for (folder, reasons) in reasonsByFolder where folders?.contains(folder) ?? true {
            for (reason, rows) in reasons { merged[reason, default: 0] += rows }
        }
        return merged.min { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
    }

    /// Every reason with its rows, most first.
    package var reasons: [(reason: String, rows: Int)] {
        var merged: [String: Int] = [:]
        for reasons in reasonsByFolder.values { for (reason, rows) in reasons { merged[reason, default: 0] += rows } }
        return merged.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
    }
}
