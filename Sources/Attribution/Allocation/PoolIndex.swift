import Ingest
import Support

/// Finds the pools a usage row draws from: those spread over its category whose charge period
/// holds its time.
///
/// Pools are bucketed by category and UTC day, so a row costs a few byte comparisons and one
/// dictionary lookup, whatever the size of the bill.
package struct PoolIndex: Sendable {
    package let pools: [CostPool]
    /// Usage categories spread over, as bytes, in first-seen order.
    private let categories: [[UInt8]]
    /// Per category: pools (indices into `pools`) by every day their period touches.
    private let byDay: [[Int64: [Int32]]]

    package init(pools: [CostPool]) {
        self.pools = pools
        var categories: [[UInt8]] = []
        var byDay: [[Int64: [Int32]]] = []
        for (index, pool) in pools.enumerated() {
            let name = Array(pool.line.category.utf8)
            var slot = categories.firstIndex(of: name) ?? -1
            if slot < 0 {
                slot = categories.count
                categories.append(name)
                byDay.append([:])
            }
            let last = Timestamp(milliseconds: pool.row.end.milliseconds - 1).dayNumber
            for day in pool.row.start.dayNumber...last { byDay[slot][day, default: []].append(Int32(index)) }
        }
        self.categories = categories
        self.byDay = byDay
    }

    package var isEmpty: Bool { pools.isEmpty }

    /// Calls `body` with every pool (index) the row draws from, in bill order.
    @inline(__always)
    package func forEachPool(category: UnsafeRawBufferPointer, at time: Timestamp, _ body: (Int32) throws -> Void) rethrows {
        guard !categories.isEmpty else { return }
        for slot in categories.indices where categories[slot].elementsEqual(category) {
            guard let candidates = byDay[slot][time.dayNumber] else { return }
            for index in candidates where pools[Int(index)].covers(time) { try body(index) }
            return
        }
    }
}
