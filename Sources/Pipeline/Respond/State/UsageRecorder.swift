import Attribution
import Ingest
import Support

/// Keeps what an answer needs of each accepted cost row (`UsageRecord`) and the request id it
/// claimed (`RequestIDRecord`), with the state's number of its file: respond's reading of the
/// cost files, which attributes nothing.
///
/// The cost is converted to the report currency as the attributor converts it, so a row the
/// attributor could not convert stops this reading as it would stop a report. A reading of
/// every file (a rebuild) spills its records past `spill.past`, sorted, to files of the state
/// folder, so its memory does not grow with the rows: the sorted files are written from them.
struct UsageRecorder: CostRowSink {
    let rates: ExchangeRates
    let hash: SipHash
    /// Each file's number in the state, by path.
    let numbers: [String: UInt32]
    var usage: Spilling<UsageRecord>
    var claims: Spilling<RequestIDRecord>
    private var file: UInt32 = 0

    init(rates: ExchangeRates, hash: SipHash, numbers: [String: UInt32], spill: (folder: String, past: Int)?) {
        self.rates = rates
        self.hash = hash
        self.numbers = numbers
        usage = Spilling(spill: spill)
        claims = Spilling(spill: spill)
    }

    func emptyCopy() -> UsageRecorder { UsageRecorder(rates: rates, hash: hash, numbers: numbers, spill: usage.spill) }

    mutating func begin(part: Int) throws {}

    mutating func begin(file path: String) throws {
        file = numbers[path] ?? 0
    }

    mutating func add(_ row: CostRow) throws {
        let t = row.timestamp
        let cost = try rates.reportAmount(row.cost, from: row.currency, onDay: t.dayNumber)
        try usage.append(
            UsageRecord(
                account: StateKeys.account(row.accountID, hash), milliseconds: t.milliseconds, costNanos: cost.nanos,
                creditNanos: row.usesCredits ? row.quantityNanos ?? 0 : UsageRecord.noCredits, file: file))
        if let claimed = row.claimed { try claims.append(RequestIDRecord(claimed, file: file)) }
    }
}

/// Records of one kind on their way to a sorted file: in memory, and past a bound sorted into
/// spill files of the state folder (`spill.PID.N`, removed with the next manifest).
struct Spilling<Record: FixedRecord>: Sendable {
    /// Where records spill, and past how many (nil: kept in memory).
    let spill: (folder: String, past: Int)?
    private(set) var records: [Record] = []
    private(set) var spilled: [(path: String, sums: BlockSums)] = []

    init(spill: (folder: String, past: Int)?) {
        self.spill = spill
    }

    mutating func append(_ record: Record) throws {
        records.append(record)
        guard let spill, records.count >= spill.past else { return }
        let path = spill.folder + "/spill.\(FileSystem.processID).\(UInt64.random(in: 0...UInt64.max))"
        var runs = [records]
        records = []
        spilled.append((path, try SortedWriting.write(runs: &runs, to: path)))
    }

    /// The spilled runs, open for the merge that writes the sorted file.
    func openSpilled() throws -> [SortedRecords<Record>] {
        try spilled.map { try SortedRecords(path: $0.path, sums: $0.sums) }
    }

    /// The records in memory, given up.
    mutating func takeRecords() -> [Record] {
        defer { records = [] }
        return records
    }
}
