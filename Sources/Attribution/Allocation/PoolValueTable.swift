import Support

/// A hash table from (pool, basis value) to a count, for the per-row path of the allocation's
/// first reading: open addressing with linear probing and a multiply-shift hash, no per-process
/// seed and no hasher object, so one count is two multiplies, a shift and usually one compare.
///
/// Keys are quantities of usage rows and pool numbers, not input picked to collide; a long
/// probe costs time, never a wrong answer.
struct PoolValueTable: Sendable {
    private var values: [Int64]
    private var pools: [Int32]
    private var payloads: [Int64]
    private var shift: UInt64
    package private(set) var count = 0

    /// No entry: pool numbers are never negative.
    private static let empty: Int32 = -1

    package init() {
        values = Array(repeating: 0, count: 64)
        pools = Array(repeating: Self.empty, count: 64)
        payloads = Array(repeating: 0, count: 64)
        shift = 58
    }

    @inline(__always)
    private func slot(_ pool: Int32, _ value: Int64) -> Int {
        let mixed = (UInt64(bitPattern: value) &+ UInt64(UInt32(bitPattern: pool)) &* 0xBF58_476D_1CE4_E5B9)
        return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Adds `amount` to the entry's payload (0 when absent).
    @inline(__always)
    package mutating func add(_ amount: Int64, pool: Int32, value: Int64) {
        if count * 2 >= pools.count { grow() }
        let mask = pools.count - 1
        var index = slot(pool, value)
        while pools[index] != Self.empty {
            if pools[index] == pool && values[index] == value {
                payloads[index] += amount
                return
            }
            index = (index + 1) & mask
        }
        pools[index] = pool
        values[index] = value
        payloads[index] = amount
        count += 1
    }

    /// Every entry, in no particular order.
    package var entries: [(pool: Int32, value: Int64, payload: Int64)] {
        var found: [(Int32, Int64, Int64)] = []
        found.reserveCapacity(count)
        for index in pools.indices where pools[index] != Self.empty {
            found.append((pools[index], values[index], payloads[index]))
        }
        return found
    }

    private mutating func grow() {
        let old = entries
        let capacity = pools.count * 2
        values = Array(repeating: 0, count: capacity)
        pools = Array(repeating: Self.empty, count: capacity)
        payloads = Array(repeating: 0, count: capacity)
        shift -= 1
        count = 0
        for entry in old { add(entry.payload, pool: entry.pool, value: entry.value) }
    }
}
