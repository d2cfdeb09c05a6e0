import Ingest
import Ledger
import Support
import Synchronization

extension ParallelCostReading {
    struct Attributed {
        var totals: AttributionTotals
        var summaries: [CostFileSummary]
        var headerRejects: [Reject]
        var rowRejects: [Reject]
        var allocation: PoolAllocation?
        var readSequentially = false
    }

    /// One reading of the usage files with everything it needs.
    struct Reading {
        var root: String
        var mapping: CostColumnMap
        var prices: PriceTable
        var bill: CostPoolBill
        var template: Attributor?
        /// Without a template: the rates every row's cost must convert by.
        var rates: ExchangeRates?
        var registry: @Sendable () -> RequestRegistry
        var progress: @Sendable (Int, Int) -> Void

        /// Attributes every usage row; with a bill, first counts the usage the pools spread
        /// over, then attributes each row with its shares.
        func attribute(_ plans: [FileSplitter], threads: Int) throws -> Attributed {
            guard let template else { return try check(plans, threads: threads) }
            guard !bill.index.isEmpty else {
                // The threads add their sums per transaction into one set, not one each.
                let sharing = threads > 1 ? template.sharingTransactionSums() : template
                var read = try ParallelCostReading.readParts(
                    plans, mapping: mapping, prices: prices, pooled: bill.categories, template: sharing, threads: threads,
                    requests: registry(), progress: progress)
                let sinks = read.sinks
                read.sinks = []
                var totals = try Self.merged(consume sinks, sharing)
                sharing.sharedSums?.store(in: &totals)
                return Attributed(
                    totals: totals, summaries: read.summaries,
                    headerRejects: read.headerRejects, rowRejects: read.rowRejects,
                    allocation: bill.files.isEmpty ? nil : try bill.outcome(plan: nil, allocated: []))
            }
            // One reading of the files: rows that draw from pools are counted and kept aside,
            // then attributed with their shares, part by part in file order.
            let folder = try UsageSpillFolder()
            defer { folder.remove() }
            var first = try ParallelCostReading.readParts(
                plans, mapping: mapping, prices: prices, pooled: bill.categories,
                template: UsageBasis(attributor: template, index: bill.index, folder: folder.path), threads: threads,
                requests: registry(), progress: progress)
            var kept: [Int: (counts: UsageBasis.Counted, spill: String)] = [:]
            var attributors: [Attributor?] = []
            for var sink in first.sinks {
                // Each part is read by one thread: the parts of the readers do not overlap.
                kept.merge(try sink.finish(), uniquingKeysWith: { first, _ in first })
                attributors.append(sink.attributor)
            }
            first.sinks = []
            let plan = AllocationPlan(index: bill.index, counts: kept.mapValues(\.counts))
            let parts = kept.keys.sorted()
            let spills = parts.map { kept[$0]?.spill ?? "" }
            kept = [:]
            // Each thread goes on with an attributor of the first reading (moved, not copied:
            // their totals are as large as the ledger).
            let handoff = Mutex(attributors)
            attributors = []
            let (sinks, _) = try Parallel.workers(
                parts.count, threads: threads,
                start: { worker in
                    let attributor = handoff.withLock { left -> Attributor? in
                        guard worker < left.count else { return nil }
                        defer { left[worker] = nil }
                        return left[worker]
                    }
                    return AllocatingAttributor(attributor: attributor ?? template.emptyCopy(), plan: plan)
                }
            ) { sink, index in
                try sink.begin(part: parts[index])
                try UsageSpill.read(spills[index]) { try sink.add($0) }
            }
            let untaken = handoff.withLock { left in left.compactMap { $0 } }
            var allocated = AllocatingAttributor(attributor: template, plan: plan)
            for sink in sinks { allocated.mergeAllocated(sink) }
            return Attributed(
                totals: try Self.merged(sinks.map(\.attributor) + untaken, template), summaries: first.summaries,
                headerRejects: first.headerRejects, rowRejects: first.rowRejects,
                allocation: try bill.outcome(plan: plan, allocated: allocated.allocated))
        }

        /// Every row checked and counted, none attributed; a bill's pools are counted so that
        /// what each would spread is known.
        func check(_ plans: [FileSplitter], threads: Int) throws -> Attributed {
            let counted = try ParallelCostReading.readParts(
                plans, mapping: mapping, prices: prices, pooled: bill.categories,
                template: UsageCounter(index: bill.index, rates: rates ?? ExchangeRates(reportCurrency: .usd)),
                threads: threads, requests: registry(), progress: progress)
            var allocation: PoolAllocation?
            if !bill.files.isEmpty {
                var kept: [Int: UsageBasis.Counted] = [:]
                for var sink in counted.sinks { kept.merge(sink.finish(), uniquingKeysWith: { first, _ in first }) }
                let plan = AllocationPlan(index: bill.index, counts: kept)
                // Shares add up to their pool by construction; `report` counts them as handed out.
                let spread = bill.index.pools.indices.map { plan.rows[$0] == nil ? 0 : bill.index.pools[$0].amount.nanos }
                allocation = try bill.outcome(plan: plan, allocated: spread)
            }
            return Attributed(
                totals: .empty, summaries: counted.summaries,
                headerRejects: counted.headerRejects, rowRejects: counted.rowRejects, allocation: allocation)
        }

        /// The threads' totals as one: the first thread's become the sum, and each other's is let
        /// go once added, so the sum is not a set of arrays (as large as the ledger) besides them.
        private static func merged(_ attributors: consuming [Attributor], _ template: Attributor) throws
            -> AttributionTotals
        {
            var attributors = attributors
            guard !attributors.isEmpty else { return template.emptyCopy().totals }
            var totals = attributors.removeFirst().totals
            do {
                while !attributors.isEmpty { try totals.merge(attributors.removeFirst().totals) }
            } catch {
                throw CostSumError(file: nil, underlying: error)
            }
            return totals
        }
    }
}
