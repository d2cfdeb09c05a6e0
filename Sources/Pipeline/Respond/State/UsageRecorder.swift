import Attribution
import Ingest
import Support

/// Keeps what an answer needs of each accepted cost row (`UsageRecord`), with the state's
/// number of its file: respond's reading of the cost files, which attributes nothing.
///
/// The cost is converted to the report currency as the attributor converts it, so a row the
/// attributor could not convert stops this reading as it would stop a report. A reading of
/// every file (a rebuild) spills its records past `spillPast`, sorted, to a file of the state
/// folder, so its memory does not grow with the rows: the sorted file is written from them all.
struct UsageRecorder: CostRowSink {
    let rates: ExchangeRates
    let hash: SipHash
    /// Each file's number in the state, by path.
    let numbers: [String: UInt32]
    /// Where records spill, and past how many (nil: kept in memory).
    let spill: (folder: String, past: Int)?
    private(set) var records: [UsageRecord] = []
    /// The spilled runs: sorted files of this thread's records.
    private(set) var spilled: [(path: String, sums: BlockSums)] = []
    private var file: UInt32 = 0

    init(rates: ExchangeRates, hash: SipHash, numbers: [String: UInt32], spill: (folder: String, past: Int)?) {
        self.rates = rates
        self.hash = hash
        self.numbers = numbers
        self.spill = spill
    }

    func emptyCopy() -> UsageRecorder { UsageRecorder(rates: rates, hash: hash, numbers: numbers, spill: spill) }

    mutating func begin(part: Int) throws {}

    mutating func begin(file path: String) throws {
        file = numbers[path] ?? 0
    }

    mutating func add(_ row: CostRow) throws {
        let t = row.timestamp
        let cost = try rates.reportAmount(row.cost, from: row.currency, onDay: t.dayNumber)
        records.append(
            UsageRecord(
                account: StateKeys.account(row.accountID, hash), milliseconds: t.milliseconds, costNanos: cost.nanos,
                creditNanos: row.usesCredits ? row.quantityNanos ?? 0 : UsageRecord.noCredits, file: file))
        if let spill, records.count >= spill.past { try spillRecords(to: spill.folder) }
    }

    private mutating func spillRecords(to folder: String) throws {
        let path = folder + "/spill.\(FileSystem.processID).\(UInt64.random(in: 0...UInt64.max))"
        var runs = [records]
        records = []
        spilled.append((path, try SortedWriting.write(runs: &runs, to: path)))
    }

    /// The spilled runs, open for the merge that writes the sorted file.
    func openSpilled() throws -> [SortedRecords<UsageRecord>] {
        try spilled.map { try SortedRecords(path: $0.path, sums: $0.sums) }
    }

    /// This thread's records in memory, given up.
    mutating func takeRecords() -> [UsageRecord] {
        defer { records = [] }
        return records
    }
}
