import Support

/// The sorted files that hold one kind of the state's records (`index`, `usage`, `claims`,
/// `repeats`): the records a run read are written as a file of their own, and the newest files
/// are merged as they pile up, so a run costs what arrived and a lookup reads a few files
/// (where one file rewritten with every arrival, or records kept in the manifest until a merge,
/// made every run pay for the whole day).
///
/// Files are merged while the older of the last two holds no more than twice the newer's
/// records (or when there are more than `mostFiles`): each file holds at least twice the
/// records of the next, so a state of 40 million records is a dozen files at most, and a record
/// is rewritten a few times over its life. Merging drops the records of files read again.
struct RecordRuns: Sendable, Codable, Hashable {
    struct Run: Sendable, Codable, Hashable {
        var number: Int
        var count: Int
        var sums: BlockSums
    }

    var kind: String
    var runs: [Run] = []

    static let mostFiles = 12

    init(kind: String) {
        self.kind = kind
    }

    func path(of run: Run, in folder: String) -> String { folder + "/\(kind).\(run.number)" }

    var names: Set<String> { Set(runs.map { "\(kind).\($0.number)" }) }

    /// Every file, mapped and checked against its sums as it is read.
    func open<Record: FixedRecord>(in folder: String, as type: Record.Type = Record.self) throws -> OpenRuns<Record> {
        OpenRuns(files: try runs.map { try SortedRecords<Record>(path: path(of: $0, in: folder), sums: $0.sums) })
    }

    /// Adds one file of the records in `runs` (in memory) and `spilled` (sorted files written as
    /// they were read), then merges the newest files as they pile up, keeping the records
    /// `keep` says to; `number` names each new file.
    mutating func add<Record: FixedRecord>(
        _ records: inout [[Record]], spilled: [SortedRecords<Record>] = [], in folder: String, number: () -> Int,
        keep: (Record) -> Bool
    ) throws {
        let count = records.reduce(0) { $0 + $1.count } + spilled.reduce(0) { $0 + $1.count }
        guard count > 0 else {
            records = []
            return
        }
        let run = Run(number: number(), count: count, sums: BlockSums())
        var written = run
        written.sums = try SortedWriting.write(runs: &records, files: spilled, keep: keep, to: path(of: run, in: folder))
        written.count = written.sums.length / Record.size
        runs.append(written)
        while runs.count >= 2, runs[runs.count - 2].count <= 2 * runs[runs.count - 1].count || runs.count > Self.mostFiles {
            let newer = runs.removeLast()
            let older = runs.removeLast()
            let files = try [older, newer].map { try SortedRecords<Record>(path: path(of: $0, in: folder), sums: $0.sums) }
            var merged = Run(number: number(), count: 0, sums: BlockSums())
            merged.sums = try SortedWriting.merge(files.map { .file($0) }, keep: keep, to: path(of: merged, in: folder))
            merged.count = merged.sums.length / Record.size
            runs.append(merged)
        }
    }
}

/// A kind's files, open: a key's records are those of every file.
struct OpenRuns<Record: FixedRecord>: Sendable {
    let files: [SortedRecords<Record>]

    /// Every record of `key`, in record order.
    func records(_ key: UInt64) throws -> [Record] {
        var found: [Record] = []
        for file in files { found += try file.records(key) }
        return files.count > 1 ? found.sorted() : found
    }

    /// Every record of every file (for a check of all of them, or a scan).
    func forEach(_ body: (Record) throws -> Void) throws {
        for file in files { try file.forEach(body) }
    }
}
