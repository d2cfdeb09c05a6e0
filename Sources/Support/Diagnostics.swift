/// One input line that was refused, with everything a person needs to find and fix it.
package struct Reject: Sendable, Hashable, CustomStringConvertible, Codable {
    package var file: String
    package var line: Int
    package var field: String
    package var value: String
    package var reason: String

    package init(file: String, line: Int, field: String, value: String, reason: String) {
        self.file = file
        self.line = line
        self.field = field
        self.value = value
        self.reason = reason
    }

    /// `path:line: error: field 'cost' = "12,5": reason`, the form compilers use, so editors jump to it.
    package var description: String {
        let shownValue = value.count > 80 ? String(value.prefix(77)) + "..." : value
        let location = line > 0 ? "\(file):\(line)" : file
        if field.isEmpty { return "\(location): error: \(reason)" }
        return "\(location): error: \(field) \"\(shownValue)\": \(reason)"
    }

    package static let csvHeader = ["file", "line", "field", "value", "reason"]
}

/// Collects rejects as they happen: counts them, keeps the first few for the terminal,
/// and streams all of them to `rejects.csv` when a file is given, so memory stays flat.
package final class RejectLog {
    package private(set) var count = 0
    package private(set) var countsByReason: [String: Int] = [:]
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
        countsByReason[reject.reason, default: 0] += 1
        if firstRejects.count < keep { firstRejects.append(reject) }
        all?.append(reject)
        if let writer {
            writer.text(reject.file)
            writer.integer(reject.line)
            writer.text(reject.field)
            writer.text(reject.value)
            writer.text(reject.reason)
            try writer.endRow()
        }
    }

    package func commit() throws(SystemError) {
        try writer?.commit()
        writer = nil
    }
}
