import Ingest
import Support

/// A pool row an allocation line takes: the cost to spread, over which usage, in which unit.
package struct CostPool: Sendable, Hashable, Codable {
    package var row: PoolRow
    package var line: AllocationLine
    /// The cost taken (`line.cost` of the row).
    package var amount: Money
    /// The step shares are made in, in nano-units: a micro-unit (1,000), or a nano-unit when the
    /// bill itself has digits below the micro-unit, so the shares always add up to the row.
    package var step: Int64

    package init(row: PoolRow, line: AllocationLine, amount: Money) {
        self.row = row
        self.line = line
        self.amount = amount
        step = PoolShares.step(for: amount)
    }

}
