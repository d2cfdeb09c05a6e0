import Ingest
import Support

/// What became of every pool row of the bill: spread over usage, or left unallocated and why.
///
/// Nothing is lost: pool cost read = allocated + unallocated, in every currency, checked every
/// run (`holds`), with `allocated` counted from the shares actually handed to usage rows.
package struct PoolAllocation: Sendable, Hashable, Codable {
    /// One line of the report's `allocation.csv`: pool rows of one day, service, charge
    /// category and usage category, with the same outcome.
    package struct Line: Sendable, Hashable, Codable {
        package var day: Int64
        package var serviceName: String
        package var chargeCategory: String
        /// The usage category spread over; empty when no allocation line took the rows.
        package var category: String
        package var allocated: Bool
        /// Why the cost was not allocated; empty when it was.
        package var reason: String
        package var currency: CurrencyCode
        package var poolRows: Int
        package var cost: Money
        /// Usage rows the cost was spread over.
        package var usageRows: Int

        var key: [String] {
            [
                String(day).leftPadded(to: 7), serviceName, chargeCategory, category, allocated ? "0" : "1", reason,
                currency.description,
            ]
        }
    }

    /// The FOCUS files read as pools, relative to the data folder.
    package var poolFiles: [String] = []
    /// The allocation file, relative to the data folder; nil when there is none.
    package var rulesFile: String?
    /// Pool rows read (rejected ones aside).
    package var poolRows = 0
    package var read = CostTotals()
    package var allocated = CostTotals()
    package var unallocated = CostTotals()
    package var lines: [Line] = []

    package init() {}

    /// `5.000000 EUR + 29.300000 USD read = ... allocated + ... unallocated`, as the console,
    /// `validate` and the page's reconciliation say it.
    package var balance: String {
        func listed(_ totals: CostTotals) -> String {
            let sorted = totals.sorted
            return sorted.isEmpty ? "0" : sorted.map { "\($0.amount) \($0.currency)" }.joined(separator: " + ")
        }
        return "\(listed(read)) read = \(listed(allocated)) allocated + \(listed(unallocated)) unallocated"
    }

    package var holds: Bool {
        var sum = allocated
        guard (try? sum.add(unallocated)) != nil else { return false }
        return sum == read
    }

    /// The outcome of one reading: `taken` the pool rows an allocation line took (`pools`, in
    /// bill order), `left` those none took; `allocated` the nano-units handed out per pool.
    init(
        pools: [CostPool], plan: AllocationPlan?, allocated handedOut: [Int64], left: [PoolRow], rules: AllocationRules,
        poolFiles: [String], root: String
    ) throws {
        self.poolFiles = poolFiles.map { HumanText.relative($0, to: root) }
        rulesFile = rules.path.map { HumanText.relative($0, to: root) }
        poolRows = pools.count + left.count
        var grouped: [[String]: Line] = [:]
        func add(_ row: PoolRow, category: String, cost: Money, allocated: Bool, reason: String, usageRows: Int) throws {
            var line = Line(
                day: row.start.dayNumber, serviceName: row.serviceName, chargeCategory: row.chargeCategory, category: category,
                allocated: allocated, reason: reason, currency: row.currency, poolRows: 1, cost: cost, usageRows: usageRows)
            if let existing = grouped[line.key] {
                line.poolRows += existing.poolRows
                line.cost = try line.cost.adding(existing.cost)
                line.usageRows += existing.usageRows
            }
            grouped[line.key] = line
            try read.add(cost, in: row.currency)
            if allocated { try self.allocated.add(cost, in: row.currency) } else { try unallocated.add(cost, in: row.currency) }
        }
        for (index, pool) in pools.enumerated() {
            if let rows = plan?.rows[index] {
                let given = Money(nanos: index < handedOut.count ? handedOut[index] : 0)
                try add(pool.row, category: pool.line.category, cost: given, allocated: true, reason: "", usageRows: rows)
                // Shares that do not add up to the row would be a fault of the tool: the
                // difference is shown, and the check fails.
                if given != pool.amount {
                    try read.add(try pool.amount.subtracting(given), in: pool.row.currency)
                }
            } else {
                let what = pool.line.basis == .quantity ? "usage with a quantity" : "usage"
                try add(
                    pool.row, category: pool.line.category, cost: pool.amount, allocated: false,
                    reason: "no \(what) of category \(pool.line.category) in the charge period", usageRows: 0)
            }
        }
        for row in left {
            try add(
                row, category: "", cost: row.effectiveCost ?? row.billedCost ?? .zero, allocated: false,
                reason: Self.reasonLeft(row, rules: rules), usageRows: 0)
        }
        lines = grouped.values.sorted { $0.key.lexicographicallyPrecedes($1.key) { $0.bytesPrecede($1) } }
    }

    /// Why no allocation line took a row.
    static func reasonLeft(_ row: PoolRow, rules: AllocationRules) -> String {
        guard rules.path != nil else { return "no allocation.csv in the data folder" }
        if !AllocationLine.defaultChargeCategories.contains(row.chargeCategory) {
            return "\(row.chargeCategory) rows are left out unless a line names \(row.chargeCategory) in charge_category"
        }
        return "no line of allocation.csv matches"
    }
}
