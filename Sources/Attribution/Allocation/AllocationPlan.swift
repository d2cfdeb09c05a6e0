import Ingest
import Support

/// Every pool's shares, planned from the first reading of the usage rows, and where each part of
/// the second reading starts counting the rows that share a pool's last left-over steps.
package struct AllocationPlan: Sendable {
    package let index: PoolIndex
    /// Per pool; nil when its period holds no usage to spread over.
    package let shares: [PoolShares?]
    /// Per part: per pool with boundary rows, how many of them earlier parts hold.
    package let partOffsets: [Int: [Int32: Int]]

    package init(index: PoolIndex, counts byPart: [Int: [UsageBasis.Key: Int]]) {
        self.index = index
        var rowsByValue = [[Int64: Int]](repeating: [:], count: index.pools.count)
        for counts in byPart.values {
            for (key, rows) in counts { rowsByValue[Int(key.pool)][key.value, default: 0] += rows }
        }
        let shares = index.pools.indices.map { pool in
            PoolShares(amount: index.pools[pool].amount, step: index.pools[pool].step, rowsByValue: rowsByValue[pool])
        }
        self.shares = shares
        var offsets: [Int: [Int32: Int]] = [:]
        var running: [Int32: Int] = [:]
        for part in byPart.keys.sorted() {
            guard let counts = byPart[part] else { continue }
            var here: [Int32: Int] = [:]
            for (pool, share) in shares.enumerated() {
                guard let share, let value = share.boundaryValue else { continue }
                let key = Int32(pool)
                here[key] = running[key, default: 0]
                running[key, default: 0] += counts[UsageBasis.Key(pool: key, value: value)] ?? 0
            }
            offsets[part] = here
        }
        partOffsets = offsets
    }
}

/// The second reading: every usage row that draws from pools gets its shares added to its cost
/// (in the pool's currency), and then goes to the attributor like any other cost row.
package struct AllocatingAttributor: CostRowSink {
    package var attributor: Attributor
    package let plan: AllocationPlan
    /// Per pool: nano-units handed out by this reader (they must add up to the pool's cost).
    package private(set) var allocated: [Int64]
    private var offsets: [Int32: Int] = [:]
    private var seen: [Int32: Int] = [:]

    package init(attributor: Attributor, plan: AllocationPlan) {
        self.attributor = attributor
        self.plan = plan
        allocated = Array(repeating: 0, count: plan.index.pools.count)
    }

    package func emptyCopy() -> AllocatingAttributor {
        AllocatingAttributor(attributor: attributor.emptyCopy(), plan: plan)
    }

    package mutating func begin(part: Int) {
        offsets = plan.partOffsets[part] ?? [:]
        seen = [:]
    }

    package mutating func add(_ row: CostRow) throws {
        var shares: [(currency: CurrencyCode, nanos: Int64)] = []
        let plan = self.plan
        plan.index.forEachPool(category: row.category, at: row.timestamp) { pool in
            guard let poolShares = plan.shares[Int(pool)] else { return }
            let costPool = plan.index.pools[Int(pool)]
            let value = UsageBasis.value(of: row, for: costPool)
            guard let share = poolShares.byValue[value] else { return }
            var extra = share.extra == .all
            if share.extra == .boundary {
                let ordinal = offsets[pool, default: 0] + seen[pool, default: 0]
                seen[pool, default: 0] += 1
                extra = ordinal < poolShares.boundaryExtras
            }
            let nanos = poolShares.nanos(steps: share.steps, extra: extra)
            allocated[Int(pool)] += nanos
            if let same = shares.firstIndex(where: { $0.currency == costPool.row.currency }) {
                shares[same].nanos += nanos
            } else {
                shares.append((costPool.row.currency, nanos))
            }
        }
        guard !shares.isEmpty else { return try attributor.add(row) }
        // A row that brings no cost of its own is usage a pool pays for: it takes the pool's
        // currency, so one usage row stays one cost row.
        var own = row
        if own.cost == .zero { own.currency = shares[0].currency }
        for share in shares where share.currency == own.currency {
            own.cost = try own.cost.adding(Money(nanos: share.nanos))
        }
        try attributor.add(own)
        for share in shares where share.currency != own.currency {
            var other = row
            other.cost = Money(nanos: share.nanos)
            other.currency = share.currency
            try attributor.add(other)
        }
    }

    /// Adds another reader's hand-outs.
    package mutating func mergeAllocated(_ other: AllocatingAttributor) {
        for pool in allocated.indices { allocated[pool] += other.allocated[pool] }
    }
}
