import Synchronization

/// Cells of 64-bit integers that several threads change at once, each change one atomic
/// compare-and-exchange, never a lock.
///
/// For sums that every thread adds to and no thread reads until all are done: the threads'
/// joining orders their changes before the reading, so the changes are relaxed.
package final class AtomicCells: Sendable {
    package let count: Int
    private nonisolated(unsafe) let cells: UnsafeMutablePointer<Atomic<Int64>>

    package init(count: Int, value: Int64) {
        self.count = count
        cells = .allocate(capacity: max(count, 1))
        for index in 0..<count { (cells + index).initialize(to: Atomic(value)) }
    }

    deinit {
        cells.deinitialize(count: count)
        cells.deallocate()
    }

    /// The value of cell `index`.
    package subscript(index: Int) -> Int64 {
        precondition(index >= 0 && index < count, "a cell of the table")
        return cells[index].load(ordering: .relaxed)
    }

    /// Adds `amount` to cell `index`; false, the cell unchanged, when the sum would not fit.
    package func add(_ amount: Int64, at index: Int) -> Bool { unretained.add(amount, at: index) }

    /// Makes cell `index` `value` when that is less than what it holds.
    package func lower(_ index: Int, to value: Int64) { unretained.lower(index, to: value) }

    /// The cells' address, for a path every thread takes for every row.
    ///
    /// A reference to this object would be retained and released there, a write each time to
    /// the one count every thread shares. Valid while this object lives.
    package var unretained: UnretainedAtomicCells { UnretainedAtomicCells(cells: cells, count: count) }
}

/// `AtomicCells` by address alone: copied and passed without touching a reference count.
package struct UnretainedAtomicCells: @unchecked Sendable {
    fileprivate let cells: UnsafeMutablePointer<Atomic<Int64>>
    package let count: Int

    /// Adds `amount` to cell `index`; false, the cell unchanged, when the sum would not fit.
    package func add(_ amount: Int64, at index: Int) -> Bool {
        precondition(index >= 0 && index < count, "a cell of the table")
        var old = cells[index].load(ordering: .relaxed)
        while true {
            let (sum, overflow) = old.addingReportingOverflow(amount)
            if overflow { return false }
            // Another thread changed the cell since it was read: add to what it holds now.
            let (exchanged, now) = cells[index].compareExchange(expected: old, desired: sum, ordering: .relaxed)
            if exchanged { return true }
            old = now
        }
    }

    /// Makes cell `index` `value` when that is less than what it holds.
    package func lower(_ index: Int, to value: Int64) {
        precondition(index >= 0 && index < count, "a cell of the table")
        var old = cells[index].load(ordering: .relaxed)
        while value < old {
            let (exchanged, now) = cells[index].compareExchange(expected: old, desired: value, ordering: .relaxed)
            if exchanged { return }
            old = now
        }
    }
}
