import Ingest
import Support

/// The FOCUS form of the generated cost: what each day's usage of a pooled category cost, as
/// a bill, and the allocation that spreads it back over the usage rows.
///
/// The pool of a day and category costs exactly what its rows cost in the per-account form,
/// so the totals of both forms are the same; the shares follow the quantity, as the report's
/// allocation does.
struct FocusBillWriter {
    /// Categories the bill pays for, with the service that bills them.
    static let services: [(category: String, service: String, resource: String)] = [
        ("compute", "Amazon Elastic Compute Cloud", "arn:aws:ec2:us-east-1:123456789012:instance/i-0gpu"),
        ("api", "Amazon Bedrock", "arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude"),
        ("storage", "Amazon S3", "arn:aws:s3:::generated-media"),
    ]

    static func isPooled(_ category: String) -> Bool { services.contains { $0.category == category } }

    struct Pool: Hashable {
        var day: Int64
        var category: String
    }

    /// Per pool: the cost of its rows, and its rows by quantity (first copies only: the report
    /// drops a repeated request id).
    private var cost: [Pool: Int64] = [:]
    private var rowsByQuantity: [Pool: [Int64: Int]] = [:]

    mutating func add(category: String, at time: Int64, cost rowCost: Money, quantityNanos: Int64, firstCopy: Bool) {
        guard firstCopy else { return }
        let pool = Pool(day: Timestamp(milliseconds: time).dayNumber, category: category)
        cost[pool, default: 0] += rowCost.nanos
        rowsByQuantity[pool, default: [:]][quantityNanos, default: 0] += 1
    }

    /// Writes `costs/focus-bill.csv`, `allocation.csv` and `allocated/*.csv` (the month files of
    /// `costs/` with every pooled row's share as its cost).
    func finish(root: String, monthFiles: [String]) throws {
        let bill = try CSVFileWriter(
            path: root + "/costs/focus-bill.csv",
            header: [
                "BilledCost", "BillingAccountId", "BillingCurrency", "ChargeCategory", "ChargeDescription", "ChargePeriodEnd",
                "ChargePeriodStart", "EffectiveCost", "ResourceId", "ServiceName", "Tags", "x_UsageType",
            ])
        let pools = cost.keys.sorted { ($0.day, $0.category) < ($1.day, $1.category) }
        for pool in pools {
            guard let service = Self.services.first(where: { $0.category == pool.category }) else { continue }
            let amount = Money(nanos: cost[pool] ?? 0)
            bill.money(amount)
            bill.text("123456789012")
            bill.text("USD")
            bill.text("Usage")
            bill.text("\(pool.category) for the app's users")
            bill.timestamp(Timestamp(milliseconds: (pool.day + 1) * Timestamp.millisecondsPerDay))
            bill.timestamp(Timestamp(milliseconds: pool.day * Timestamp.millisecondsPerDay))
            bill.money(amount)
            bill.text(service.resource)
            bill.text(service.service)
            bill.text("{\"app\":\"generated\"}")
            bill.text(pool.category)
            try bill.endRow()
        }
        try bill.commit()
        let allocation = try CSVFileWriter(path: root + "/allocation.csv", header: AllocationRules.header)
        for service in Self.services {
            for field in [service.service, "", "", "", service.category, "quantity", "EffectiveCost"] { allocation.text(field) }
            try allocation.endRow()
        }
        try allocation.commit()
        try writeAllocated(root: root, monthFiles: monthFiles)
    }

    /// The per-account rows the allocation makes: shares in micro-units by the largest
    /// remainder, ties to the earlier row in file order, as the report shares them.
    private func writeAllocated(root: String, monthFiles: [String]) throws {
        var shares: [Pool: PoolShares] = [:]
        for (pool, rows) in rowsByQuantity {
            let amount = Money(nanos: cost[pool] ?? 0)
            shares[pool] = PoolShares(amount: amount, step: PoolShares.step(for: amount), rowsByValue: rows)
        }
        var boundarySeen: [Pool: Int] = [:]
        try FileSystem.createDirectory(root + "/allocated")
        for name in monthFiles {
            let out = try CSVFileWriter(path: root + "/allocated/" + name, header: CostRowWriter.header)
            var previous: (request: String, cost: String)?
            var header = true
            try CSVReader.read(path: root + "/costs/" + name) { record in
                if header {
                    header = false
                    return
                }
                var fields = record.strings
                let category = fields[2]
                if Self.isPooled(category), let time = TimestampParser.parse(fields[0]) {
                    let request = fields[7]
                    if let previous, previous.request == request {
                        fields[3] = previous.cost
                    } else {
                        let pool = Pool(day: time.dayNumber, category: category)
                        let value = (try? Money.parse(fields[5]))?.nanos ?? 0
                        var nanos: Int64 = 0
                        if let plan = shares[pool], let share = plan.byValue[value] {
                            var extra = share.extra == .all
                            if share.extra == .boundary {
                                extra = boundarySeen[pool, default: 0] < plan.boundaryExtras
                                boundarySeen[pool, default: 0] += 1
                            }
                            nanos = plan.nanos(steps: share.steps, extra: extra)
                        }
                        fields[3] = Money(nanos: nanos).formatted(decimals: 6)
                    }
                    fields[4] = "USD"
                    previous = (request, fields[3])
                }
                for field in fields { out.text(field) }
                try out.endRow()
            }
            try out.commit()
        }
    }
}
