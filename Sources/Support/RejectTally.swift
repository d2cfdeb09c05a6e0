/// What a reject log found, frozen at the end of reading: how many rejects and rows, the
/// first few, the files refused whole and the reasons, for every command's verdict.
package struct RejectTally: Sendable, Hashable, Codable {
    package var lines = 0
    package var rows = 0
    package var samples: [Reject] = []
    package var wholeFiles: [Reject] = []
    var reasonsByFolder: [String: [String: Int]] = [:]

    package init() {}

    package init(_ log: RejectLog) {
        lines = log.count
        rows = log.rows
        samples = log.firstRejects
        wholeFiles = log.wholeFiles
        reasonsByFolder = log.reasonsByFolder
    }

    /// Counts one more reject, as a log records it: what respond's state keeps of the lines it
    /// read in earlier runs.
    package mutating func record(_ reject: Reject, keepingFirst keep: Int = 20) {
        lines += 1
        rows += reject.rows
        if reject.wholeFile { wholeFiles.append(reject) }
        reasonsByFolder[reject.folder, default: [:]][reject.reason, default: 0] += reject.rows
        if samples.count < keep { samples.append(reject) }
    }

    /// This tally and `other`'s together (`other`'s samples after this one's).
    package func merged(with other: RejectTally, keepingFirst keep: Int = 20) -> RejectTally {
        var merged = self
        merged.lines += other.lines
        merged.rows += other.rows
        merged.wholeFiles += other.wholeFiles
        for (folder, reasons) in other.reasonsByFolder {
            for (reason, rows) in reasons { merged.reasonsByFolder[folder, default: [:]][reason, default: 0] += rows }
        }
        merged.samples = Array((samples + other.samples).prefix(keep))
        return merged
    }

    /// The App Store folders: what the ledger is built from.
    package static let appStoreFolders: Set<String> = ["notifications", "transactions"]

    package func rows(in folders: Set<String>) -> Int {
        reasonsByFolder.filter { folders.contains($0.key) }.values.reduce(0) { $0 + $1.values.reduce(0, +) }
    }

    /// The reason that refused the most rows among `folders` (all when nil); ties go to the
    /// reason that sorts first, so the message is the same every run.
    func dominantReason(in folders: Set<String>? = nil) -> (reason: String, rows: Int)? {
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
