/// Collects rejects as they happen: counts them, keeps the first few for the terminal,
/// and streams all of them to `rejects.csv` when a file is given, so memory stays flat.
package final class RejectLog {
    /// Rejects recorded (lines and whole files).
    package private(set) var count = 0
    /// Input rows they stand for: what `--max-rejects` counts.
    package private(set) var rows = 0
    /// Rejected rows by reason.
    private(set) var countsByReason: [String: Int] = [:]
    /// Files refused whole, in the order they were found: the console names each one.
    package private(set) var wholeFiles: [Reject] = []
    /// Rejected rows by input folder (`Reject.folder`), then by reason.
    private(set) var reasonsByFolder: [String: [String: Int]] = [:]
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
