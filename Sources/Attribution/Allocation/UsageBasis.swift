import Ingest
import Support

/// The first reading of the usage rows when the data holds cost pools: how many rows of each
/// basis value every pool's period holds, per part of the files read, so the shares can be
/// planned before any row is attributed.
package struct UsageBasis: CostRowSink {
    package struct Key: Hashable, Sendable {
        package var pool: Int32
        package var value: Int64
    }

    package let index: PoolIndex
    /// Per part read: rows by pool and basis value.
    package private(set) var byPart: [Int: [Key: Int]] = [:]
    private var part = -1
    private var current: [Key: Int] = [:]

    package init(index: PoolIndex) {
        self.index = index
    }

    package func emptyCopy() -> UsageBasis { UsageBasis(index: index) }

    package mutating func begin(part: Int) {
        flush()
        self.part = part
    }

    package mutating func add(_ row: CostRow) throws {
        let index = self.index
        index.forEachPool(category: row.category, at: row.timestamp) { pool in
            current[Key(pool: pool, value: Self.value(of: row, for: index.pools[Int(pool)])), default: 0] += 1
        }
    }

    /// The counts of every part this reader took, including the last.
    package mutating func finish() -> [Int: [Key: Int]] {
        flush()
        return byPart
    }

    private mutating func flush() {
        if part >= 0 && !current.isEmpty { byPart[part, default: [:]].merge(current, uniquingKeysWith: +) }
        current = [:]
    }

    /// A row's basis under a pool: 1 for `rows`; its quantity for `quantity` (nothing for a row
    /// without one, or with zero or less).
    @inline(__always)
    package static func value(of row: CostRow, for pool: CostPool) -> Int64 {
        pool.line.basis == .rows ? 1 : max(0, row.quantityNanos ?? 0)
    }
}

/// Whatever takes the accepted rows of a reading of the cost files: the attributor, or the
/// first reading that counts usage for the pools.
package protocol CostRowSink: Sendable {
    /// The same sink with nothing counted yet, one per thread.
    func emptyCopy() -> Self
    /// The rows that follow are those of part `part`, in file order.
    mutating func begin(part: Int)
    mutating func add(_ row: CostRow) throws
}
