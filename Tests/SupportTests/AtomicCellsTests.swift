import Testing

@testable import Support

/// Cells that several threads add to at once keep every addition.
@Suite("Atomic cells")
struct AtomicCellsTests {
    /// Four threads each add 1, 2 and 3 to each of 64 cells, 2,000 times: every cell ends at
    /// 4 × 2,000 × 6 = 48,000 and the one lowered by every thread holds the least it was given.
    @Test func additionsFromFourThreadsAtOnceAreAllKept() throws {
        let cells = AtomicCells(count: 64, value: 0)
        let lowest = AtomicCells(count: 1, value: .max)
        _ = try Parallel.map(4, threads: 4) { thread in
            for round in 0..<2_000 {
                for index in 0..<64 {
                    for amount in 1...3 { #expect(cells.add(Int64(amount), at: index)) }
                }
                lowest.lower(0, to: Int64(10_000 + thread * 2_000 + (1_999 - round)))
            }
        }
        #expect((0..<64).allSatisfy { cells[$0] == 48_000 })
        #expect(lowest[0] == 10_000)
    }

    /// A sum past Int64 is refused and leaves the cell as it was; a value above the cell's does not lower it.
    @Test func aSumThatDoesNotFitLeavesTheCell() {
        let cells = AtomicCells(count: 2, value: 5)
        #expect(cells.add(.max - 5, at: 0))
        #expect(!cells.add(1, at: 0))
        #expect(cells[0] == .max)
        #expect(cells.add(-7, at: 1) && cells[1] == -2)
        cells.lower(1, to: 3)
        #expect(cells[1] == -2)
        #expect(AtomicCells(count: 0, value: 1).count == 0)
    }
}
