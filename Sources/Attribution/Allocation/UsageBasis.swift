import Ingest
import Support

/// The reading of the cost files when the data holds a FOCUS bill: a row that draws from no pool
/// is attributed at once; a row that does is counted by basis value for each of its pools and
/// kept in its part's spill file, to be attributed with its shares once every row is counted.
struct UsageBasis: CostRowSink {
    /// Rows by pool and basis value, counted in a table while the part is read.
    package typealias Counts = PoolValueTable
    /// A read part's counts, kept flat (a table's empty slots would double them).
    package typealias Counted = [(pool: Int32, value: Int64, payload: Int64)]

    package var attributor: Attributor
    package let index: PoolIndex
    private let folder: String
    /// Per part read: its counts and its spill file.
    private(set) var byPart: [Int: (counts: Counted, spill: String)] = [:]
    /// The part being read: `begin(part:)` sets it before the part's first row.
    private var part = 0
    private var current = Counts()
    private var spill: UsageSpill?

    /// Spill files go into `folder`, one per part.
    package init(attributor: Attributor, index: PoolIndex, folder: String) {
        self.attributor = attributor
        self.index = index
        self.folder = folder
    }

    package func emptyCopy() -> UsageBasis {
        UsageBasis(attributor: attributor.emptyCopy(), index: index, folder: folder)
    }

    package mutating func begin(part: Int) throws {
        try finishPart()
        self.part = part
    }

    package mutating func add(_ row: CostRow) throws {
        var draws = false
        index.forEachPool(category: row.category, at: row.timestamp) { pool in
            current.add(1, pool: pool, value: index.basis(of: row, pool: pool))
            draws = true
        }
        guard draws else { return try attributor.add(row) }
        if spill == nil { spill = try UsageSpill(path: folder + "/part-\(part).rows") }
        try spill?.append(row)
    }

    /// Writes out the part in hand; the counts and spill files of every part this reader took.
    package mutating func finish() throws -> [Int: (counts: Counted, spill: String)] {
        try finishPart()
        return byPart
    }

    private mutating func finishPart() throws {
        guard let spill else { return }
        try spill.finish()
        byPart[part] = (current.entries, spill.path)
        current = Counts()
        self.spill = nil
    }
}

/// The same count for a reading that only checks the rows (`validate`): nothing is kept aside
/// and nothing attributed, but every row's cost must convert to the report currency, as
/// `report` will ask.
struct UsageCounter: CostRowSink {
    package let index: PoolIndex
    package let rates: ExchangeRates
    private var byPart: [Int: UsageBasis.Counted] = [:]
    /// The part being read: `begin(part:)` sets it before the part's first row.
    private var part = 0
    private var current = UsageBasis.Counts()

    package init(index: PoolIndex, rates: ExchangeRates) {
        self.index = index
        self.rates = rates
    }

    package func emptyCopy() -> UsageCounter { UsageCounter(index: index, rates: rates) }

    package mutating func begin(part: Int) throws {
        flush()
        self.part = part
    }

    package mutating func add(_ row: CostRow) throws {
        _ = try rates.reportAmount(row.cost, from: row.currency, onDay: row.timestamp.dayNumber)
        index.forEachPool(category: row.category, at: row.timestamp) { pool in
            current.add(1, pool: pool, value: index.basis(of: row, pool: pool))
        }
    }

    package mutating func finish() -> [Int: UsageBasis.Counted] {
        flush()
        return byPart
    }

    private mutating func flush() {
        if current.count > 0 { byPart[part] = current.entries }
        current = UsageBasis.Counts()
    }
}

/// Whatever takes the accepted rows of a reading of the cost files: the attributor, or the
/// reading that counts usage for the pools.
package protocol CostRowSink: Sendable {
    /// The same sink with nothing counted yet, one per thread.
    func emptyCopy() -> Self
    /// The rows that follow are those of part `part`, in file order.
    mutating func begin(part: Int) throws
    /// The rows that follow are those of the file at `path` (before `begin(part:)`).
    mutating func begin(file path: String) throws
    mutating func add(_ row: CostRow) throws
}

extension CostRowSink {
    /// Most sinks need not know the file: its rows are its rows.
    package mutating func begin(file path: String) throws {}
}
