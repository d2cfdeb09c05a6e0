import Ingest
import Support

/// Every pool's shares, planned from the first reading of the usage rows, and where each part of
/// the second reading starts counting the rows that share a pool's last left-over steps.
final class AllocationPlan: Sendable {
    package let index: PoolIndex
    /// Per pool, the rows it is spread over; nil when its period holds no usage to spread over.
    package let rows: [Int?]
    /// Per part: per pool with boundary rows, how many of them earlier parts hold.
    let partOffsets: [Int: [Int32: Int]]
    /// The shares laid out for the per-row path (the tables of values are not kept): per pool,
    /// its rule, sign, step and boundary extras.
    let rules: [PoolShares.Rule?]
    let signs: [Int64]
    let steps: [Int64]
    let boundaryExtras: [Int]

    package init(index: PoolIndex, counts byPart: [Int: UsageBasis.Counted]) {
        self.index = index
        var rowsByValue = [[Int64: Int]](repeating: [:], count: index.pools.count)
        for counts in byPart.values {
            for entry in counts { rowsByValue[Int(entry.pool)][entry.value, default: 0] += Int(entry.payload) }
        }
        let shares = index.pools.indices.map { pool in
            PoolShares(amount: index.pools[pool].amount, step: index.pools[pool].step, rowsByValue: rowsByValue[pool])
        }
        rows = shares.map { $0?.rows }
        rules = shares.map { $0?.rule }
        signs = shares.map { $0?.sign ?? 1 }
        steps = shares.map { $0?.step ?? 1 }
        boundaryExtras = shares.map { $0?.boundaryExtras ?? 0 }
        var offsets: [Int: [Int32: Int]] = [:]
        var running: [Int32: Int] = [:]
        let boundaries = shares.map { $0?.boundaryValue }
        for part in byPart.keys.sorted() {
            guard let counts = byPart[part] else { continue }
            var here: [Int32: Int] = [:]
            for (pool, value) in boundaries.enumerated() where value != nil {
                here[Int32(pool)] = running[Int32(pool), default: 0]
            }
            for entry in counts where boundaries[Int(entry.pool)] == entry.value {
                running[entry.pool, default: 0] += Int(entry.payload)
            }
            offsets[part] = here
        }
        partOffsets = offsets
    }
}

/// The second reading: every usage row that draws from pools gets its shares added to its cost
/// (in the pool's currency), and then goes to the attributor like any other cost row.
struct AllocatingAttributor: CostRowSink {
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

    package mutating func begin(part: Int) throws {
        offsets = plan.partOffsets[part] ?? [:]
        seen = [:]
    }

    package mutating func add(_ row: CostRow) throws {
        // Nearly every row draws from one pool, in one currency: no list is made for it.
        var first: (currency: CurrencyCode, nanos: Int64)?
        var others: [(currency: CurrencyCode, nanos: Int64)] = []
        let plan = self.plan
        plan.index.forEachPool(category: row.category, at: row.timestamp) { pool in
            let p = Int(pool)
            guard let rule = plan.rules[p] else { return }
            let share = rule.share(of: plan.index.basis(of: row, pool: pool))
            var units = share.steps
            switch share.extra {
            case .none: break
            case .all: units += 1
            case .boundary:
                let ordinal = offsets[pool, default: 0] + seen[pool, default: 0]
                seen[pool, default: 0] += 1
                if ordinal < plan.boundaryExtras[p] { units += 1 }
            }
            let nanos = plan.signs[p] * units * plan.steps[p]
            allocated[p] += nanos
            let currency = plan.index.currencies[p]
            if first == nil {
                first = (currency, nanos)
            } else if first?.currency == currency {
                first?.nanos += nanos
            } else if let same = others.firstIndex(where: { $0.currency == currency }) {
                others[same].nanos += nanos
            } else {
                others.append((currency, nanos))
            }
        }
        guard let first else { return try attributor.add(row) }
        // A row that brings no cost of its own is usage a pool pays for: it takes the pool's
        // currency, so one usage row stays one cost row.
        var own = row
        if own.cost == .zero { own.currency = first.currency }
        var separate = others
        if first.currency == own.currency {
            own.cost = try own.cost.adding(Money(nanos: first.nanos))
        } else {
            separate.insert(first, at: 0)
        }
        if let same = separate.firstIndex(where: { $0.currency == own.currency }) {
            own.cost = try own.cost.adding(Money(nanos: separate.remove(at: same).nanos))
        }
        try attributor.add(own)
        for share in separate {
            var other = row
            other.cost = Money(nanos: share.nanos)
            other.currency = share.currency
            try attributor.add(other)
        }
    }

    /// Adds another reader's hand-outs.
    mutating func mergeAllocated(_ other: AllocatingAttributor) {
        for pool in allocated.indices { allocated[pool] += other.allocated[pool] }
    }
}
