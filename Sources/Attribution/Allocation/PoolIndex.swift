import Ingest
import Support

/// Finds the pools a usage row draws from: those spread over its category whose charge period
/// holds its time.
///
/// Pools are bucketed by category and UTC hour, so a row costs a few byte comparisons, an
/// array index and a check of the pools of its hour (one for a daily bill; the instances of a
/// cluster for an hourly one), whatever the size of the bill.
package final class PoolIndex: Sendable {
    package let pools: [CostPool]
    /// What the per-row path reads of each pool, apart from the pools themselves (whose text
    /// fields would be retained and released on every look).
    package let starts: [Int64]
    package let ends: [Int64]
    let sharesByRow: [Bool]
    package let currencies: [CurrencyCode]
    /// Usage categories spread over, as bytes, in first-seen order.
    private let categories: [[UInt8]]
    /// Per category, the hours from `firstHour[slot]` on, laid out flat: the pools (indices into
    /// `pools`) whose period touches hour `firstHour + h` are `entries[offsets[h] ..< offsets[h + 1]]`
    /// of that category, so a row costs no hashing.
    private let firstHour: [Int64]
    private let offsets: [[Int32]]
    private let entries: [[Int32]]

    package init(pools: [CostPool]) {
        self.pools = pools
        starts = pools.map(\.row.start.milliseconds)
        ends = pools.map(\.row.end.milliseconds)
        sharesByRow = pools.map { $0.line.basis == .rows }
        currencies = pools.map(\.row.currency)
        var categories: [[UInt8]] = []
        var byHour: [[Int64: [Int32]]] = []
        for (index, pool) in pools.enumerated() {
            let name = Array(pool.line.category.utf8)
            var slot = categories.firstIndex(of: name) ?? -1
            if slot < 0 {
                slot = categories.count
                categories.append(name)
                byHour.append([:])
            }
            let last = Self.hour(of: pool.row.end.milliseconds - 1)
            for hour in Self.hour(of: pool.row.start.milliseconds)...last {
                byHour[slot][hour, default: []].append(Int32(index))
            }
        }
        self.categories = categories
        var firstHour: [Int64] = []
        var offsets: [[Int32]] = []
        var entries: [[Int32]] = []
        for days in byHour {
            let first = days.keys.min() ?? 0
            let last = days.keys.max() ?? -1
            var slotOffsets: [Int32] = [0]
            var slotEntries: [Int32] = []
            if last >= first {
                for day in first...last {
                    slotEntries += days[day] ?? []
                    slotOffsets.append(Int32(slotEntries.count))
                }
            }
            firstHour.append(first)
            offsets.append(slotOffsets)
            entries.append(slotEntries)
        }
        self.firstHour = firstHour
        self.offsets = offsets
        self.entries = entries
    }

    package var isEmpty: Bool { pools.isEmpty }

    /// Hours since 1970 (times are never before it: `Timestamp.earliestAccepted`).
    @inline(__always)
    static func hour(of milliseconds: Int64) -> Int64 { milliseconds / 3_600_000 }

    /// Calls `body` with every pool (index) the row draws from, in bill order.
    @inline(__always)
    package func forEachPool(category: UnsafeRawBufferPointer, at time: Timestamp, _ body: (Int32) throws -> Void) rethrows {
        guard !categories.isEmpty else { return }
        for slot in categories.indices where categories[slot].elementsEqual(category) {
            let hour = Self.hour(of: time.milliseconds) - firstHour[slot]
            guard hour >= 0 && hour < Int64(offsets[slot].count - 1) else { return }
            let t = time.milliseconds
            for position in Int(offsets[slot][Int(hour)])..<Int(offsets[slot][Int(hour) + 1]) {
                let index = entries[slot][position]
                if t >= starts[Int(index)] && t < ends[Int(index)] { try body(index) }
            }
            return
        }
    }
}

extension PoolIndex {
    /// A row's basis under pool `pool`: 1 for `rows`; its quantity for `quantity` (nothing for
    /// a row without one, or with zero or less).
    @inline(__always)
    package func basis(of row: CostRow, pool: Int32) -> Int64 {
        sharesByRow[Int(pool)] ? 1 : max(0, row.quantityNanos ?? 0)
    }
}
