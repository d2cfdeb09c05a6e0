import Ingest
import Ledger
import Support
import Synchronization

/// Reads and attributes every cost file on all cores: files are split at record boundaries,
/// each thread takes parts in turn and attributes them into its own totals, and the totals
/// merge exactly (`AttributionTotals.merge`).
///
/// Rejects keep file and line order, whatever thread found them.
package enum ParallelCostReading {
    /// What the cost files gave, however they were read (here, or in the partials of a
    /// distributed run): merged totals with credit rows not yet settled, per-file counts,
    /// checksums and rejects in file order, and the bill's outcome.
    package struct Result: Sendable, Codable {
        /// Merged, with credit rows not yet settled.
        package var totals: AttributionTotals
        package var summaries: [CostFileSummary]
        package var inputs: [InputFileRecord]
        /// True when a request id was reused with different content and the files were read
        /// again one after the other, so that the first occurrence counts.
        package var readSequentially: Bool
        /// Files whose header cannot be used (line 1), in file order: listed before the rows'.
        package var headerRejects: [Reject]
        /// Rejected rows in file and line order.
        package var rowRejects: [Reject]
        /// What became of the FOCUS bill's pool rows; nil when `costs/` holds no bill.
        package var allocation: PoolAllocation?

        /// Readings of different files, in file order, as one: totals merged exactly, lists
        /// joined, the bill's outcome from the one reading that had it.
        package static func joined(_ readings: [Result], totals empty: AttributionTotals) throws -> Result {
            var joined = Result(
                totals: empty, summaries: [], inputs: [], readSequentially: false, headerRejects: [], rowRejects: [],
                allocation: nil)
            for reading in readings {
                do {
                    try joined.totals.merge(reading.totals)
                } catch {
                    throw CostSumError(file: nil, underlying: error)
                }
                joined.summaries += reading.summaries
                joined.inputs += reading.inputs
                joined.readSequentially = joined.readSequentially || reading.readSequentially
                joined.headerRejects += reading.headerRejects
                joined.rowRejects += reading.rowRejects
                joined.allocation = joined.allocation ?? reading.allocation
            }
            return joined
        }
    }

    /// Per part: what it found.
    private struct PartResult: Sendable {
        var summary: CostFileSummary
        var rejects: [Reject]
    }

    /// Reads every cost file; attributes its rows with copies of `template`, or, without one,
    /// only checks and counts them (`validate`: nothing is attributed, the totals are empty, each
    /// cost must convert by `checkingRates`, and a bill's outcome is what its usage would receive).
    package static func run(
        files: [String], root: String, mapping: CostColumnMap, template: Attributor?, threads: Int,
        checkingRates: ExchangeRates? = nil,
        registry: @escaping @Sendable () -> RequestRegistry = { RequestRegistry() },
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) throws -> Result {
        let threads = max(1, threads)
        // Checksums and split points, one file per thread.
        let plans = try plan(files, parts: threads == 1 ? 1 : threads * 2)
        // Usage rows without cost are priced from the data folder's prices.csv, or paid by pools.
        let prices = try PriceTable(dataFolder: root)
        let bill = try CostPoolBill(plans.filter { FocusPoolFile.isPoolFile($0.path) }.map(\.path), root: root)
        let usagePlans = plans.filter { !bill.files.contains($0.path) }
        let sequential = usagePlans.map { plan in
            var whole = plan
            whole.parts = [FilePart(path: plan.path, start: 0, end: plan.size, firstLine: 1)]
            return whole
        }
        let reading = Reading(
            root: root, mapping: mapping, prices: prices, bill: bill, template: template, rates: checkingRates,
            registry: registry, progress: progress)
        var result: Attributed
        do {
            result = try reading.attribute(usagePlans, threads: threads)
        } catch let error as CostSumError where threads > 1 {
            // Parts summed apart overflowed only when added up: in file order the row that
            // overflows is found, and the error names its file and line.
            _ = try reading.attribute(sequential, threads: 1)
            throw error
        }
        if threads > 1 && result.summaries.contains(where: { $0.conflicts > 0 }) {
            result = try reading.attribute(sequential, threads: 1)
            result.readSequentially = true
        }
        // The bill's files, in the order of the folder, beside the usage files.
        let order = Dictionary(uniqueKeysWithValues: plans.enumerated().map { ($1.path, $0) })
        var summaries = result.summaries + bill.summaries
        summaries.sort { order[$0.path, default: 0] < order[$1.path, default: 0] }
        var rowRejects = result.rowRejects + bill.rejects
        rowRejects = rowRejects.enumerated().sorted { a, b in
            let x = order[a.element.file, default: 0], y = order[b.element.file, default: 0]
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
        let inputs = plans.map { InputFileRecord(path: HumanText.relative($0.path, to: root), bytes: $0.size, sha256: $0.sha256) }
        return Result(
            totals: result.totals, summaries: summaries, inputs: inputs, readSequentially: result.readSequentially,
            headerRejects: result.headerRejects, rowRejects: rowRejects, allocation: result.allocation)
    }

    /// What a collecting reading gave: each thread's sink, per-file counts, and the rejects.
    package struct Collected<Sink: CostRowSink> {
        package var sinks: [Sink]
        package var summaries: [CostFileSummary]
        package var headerRejects: [Reject]
        package var rowRejects: [Reject]
    }

    /// Reads `files` into copies of `sink`, every row checked as `report` checks it, nothing
    /// attributed: what respond keeps of the cost rows.
    ///
    /// Each file is read over its span: from a byte offset at a row's start (with its line) to
    /// the length it had when it was looked at, whatever is appended meanwhile; a span from 0
    /// is a whole file, read in parts on every thread. A FOCUS bill is spread over all usage at
    /// once: a folder with one is refused (`PoolsNeedOneProcessError`). When a request id came back
    /// with other content, the files are read again one after the other, so that the first
    /// occurrence counts, as `run` does.
    package static func collect<Sink: CostRowSink>(
        files: [String], spans: [String: FileSpan], root: String, mapping: CostColumnMap, sink: Sink, threads: Int,
        registry: @escaping @Sendable () -> RequestRegistry
    ) throws -> Collected<Sink> {
        let threads = max(1, threads)
        if let bill = files.first(where: FocusPoolFile.isPoolFile) { throw PoolsNeedOneProcessError(file: bill) }
        let whole = files.filter { (spans[$0]?.start ?? 0) == 0 }
        var plans = try plan(whole, parts: threads == 1 ? 1 : threads * 2).map { plan in
            guard let end = spans[plan.path]?.end, end < plan.size else { return plan }
            var clipped = plan
            clipped.size = end
            clipped.parts = plan.parts.compactMap { part in
                guard part.start < end else { return nil }
                var part = part
                part.end = min(part.end, end)
                return part
            }
            return clipped
        }
        for file in files {
            guard let span = spans[file], span.start > 0 else { continue }
            plans.append(
                FileSplitter(
                    path: file, size: span.end, sha256: "",
                    parts: [FilePart(path: file, start: span.start, end: span.end, firstLine: span.firstLine)]))
        }
        let order = Dictionary(uniqueKeysWithValues: files.enumerated().map { ($1, $0) })
        plans.sort { order[$0.path, default: 0] < order[$1.path, default: 0] }
        let prices = try PriceTable(dataFolder: root)
        func read(_ plans: [FileSplitter], threads: Int) throws -> Collected<Sink> {
            let read = try Reading.read(
                plans, mapping: mapping, prices: prices, pooled: [], template: sink, threads: threads, requests: registry(),
                progress: { _, _ in })
            return Collected(
                sinks: read.sinks, summaries: read.summaries, headerRejects: read.headerRejects, rowRejects: read.rowRejects)
        }
        let collected = try read(plans, threads: threads)
        guard threads > 1, collected.summaries.contains(where: { $0.conflicts > 0 }) else { return collected }
        return try read(
            plans.map { plan in
                var whole = plan
                let first = plan.parts.first
                whole.parts = [
                    FilePart(path: plan.path, start: first?.start ?? 0, end: plan.size, firstLine: first?.firstLine ?? 1)
                ]
                return whole
            }, threads: 1)
    }

    private struct Attributed {
        var totals: AttributionTotals
        var summaries: [CostFileSummary]
        var headerRejects: [Reject]
        var rowRejects: [Reject]
        var allocation: PoolAllocation?
        var readSequentially = false
    }

    private static func plan(_ files: [String], parts: Int) throws -> [FileSplitter] {
        try Parallel.map(files.count, threads: FileSystem.processorCount) { index in
            // JSON lines are read whole: a CSV record boundary means nothing inside JSON.
            try FileSplitter(path: files[index], parts: CostFormat.isJSONLines(files[index]) ? 1 : parts)
        }
    }

    /// One reading of the usage files with everything it needs.
    private struct Reading {
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
                let read = try Self.read(
                    plans, mapping: mapping, prices: prices, pooled: bill.categories, template: template, threads: threads,
                    requests: registry(), progress: progress)
                return Attributed(
                    totals: try Self.merged(read.sinks, template), summaries: read.summaries,
                    headerRejects: read.headerRejects, rowRejects: read.rowRejects,
                    allocation: bill.files.isEmpty ? nil : try bill.outcome(plan: nil, allocated: []))
            }
            // One reading of the files: rows that draw from pools are counted and kept aside,
            // then attributed with their shares, part by part in file order.
            let folder = try UsageSpillFolder()
            defer { folder.remove() }
            var first = try Self.read(
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
            let counted = try Self.read(
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

        private static func merged(_ attributors: [Attributor], _ template: Attributor) throws -> AttributionTotals {
            var totals = template.emptyCopy().totals
            do {
                for attributor in attributors { try totals.merge(attributor.totals) }
            } catch {
                throw CostSumError(file: nil, underlying: error)
            }
            return totals
        }

        struct Read<Sink: CostRowSink> {
            var sinks: [Sink]
            var summaries: [CostFileSummary]
            var headerRejects: [Reject]
            var rowRejects: [Reject]
        }

        /// Reads every part of `plans` on `threads` threads into copies of `template`.
        static func read<Sink: CostRowSink>(
            _ plans: [FileSplitter], mapping: CostColumnMap, prices: PriceTable, pooled: Set<String>, template: Sink,
            threads: Int, requests: RequestRegistry, progress: @escaping @Sendable (Int, Int) -> Void
        ) throws -> Read<Sink> {
            let (checkers, headerRejects) = try headers(plans, mapping: mapping, prices: prices, pooled: pooled)
            let parts = plans.enumerated().flatMap { file, plan in
                checkers[file] == nil ? [] : plan.parts.map { (file: file, part: $0) }
            }
            let progressCounts = Mutex((bytes: 0, rows: 0))
            let checkersCopy = checkers
            let (sinks, partResults) = try Parallel.workers(
                parts.count, threads: threads, start: { _ in template.emptyCopy() }
            ) { sink, index in
                let (file, part) = parts[index]
                try sink.begin(file: part.path)
                try sink.begin(part: index)
                guard let checker = checkersCopy[file] else {
                    return PartResult(summary: CostFileSummary(path: part.path, bytes: 0), rejects: [])
                }
                var summary = CostFileSummary(path: part.path, bytes: 0)
                var found: [Reject] = []
                var rows = 0
                if checker.columns.format.readsJSONLines {
                    try InputStream.readLines(path: part.path) { line, bytes in
                        if let reject = try checker.takeEvent(
                            line: line, bytes: bytes, into: &summary, requests: requests, { try sink.add($0) })
                        {
                            found.append(reject)
                        }
                    }
                    let counted = progressCounts.withLock { counts in
                        counts.bytes += part.end - part.start
                        counts.rows += summary.rows
                        return counts
                    }
                    progress(counted.bytes, counted.rows)
                    return PartResult(summary: summary, rejects: found)
                }
                var skipHeader = part.start == 0
                try CSVReader.read(
                    part: part,
                    onBlock: { block in
                        let counted = progressCounts.withLock { counts in
                            counts.bytes += block.count
                            counts.rows += rows
                            return counts
                        }
                        rows = 0
                        progress(counted.bytes, counted.rows)
                    }
                ) { record in
                    if skipHeader {
                        skipHeader = false
                        return
                    }
                    rows += 1
                    if let reject = try checker.take(record, into: &summary, requests: requests, { try sink.add($0) }) {
                        found.append(reject)
                    }
                }
                return PartResult(summary: summary, rejects: found)
            }

            var summaries = plans.map { CostFileSummary(path: $0.path, bytes: $0.size) }
            var rowRejects: [Reject] = []
            for (index, (file, _)) in parts.enumerated() {
                let part = partResults[index]
                do {
                    try summaries[file].merge(part.summary)
                } catch {
                    throw CostSumError(file: part.summary.path, underlying: error)
                }
                rowRejects.append(contentsOf: part.rejects)
            }
            return Read(sinks: sinks, summaries: summaries, headerRejects: headerRejects, rowRejects: rowRejects)
        }
    }

    /// Every file's header, read through the file's own start (a part other than the first
    /// has none).
    ///
    /// A file whose header cannot be used is a rejected input, line 1, and none of its rows are read;
    /// the others go on, so one run lists every such file.
    private static func headers(
        _ plans: [FileSplitter], mapping: CostColumnMap, prices: PriceTable, pooled: Set<String>
    ) throws -> (checkers: [CostRowChecker?], rejects: [Reject]) {
        var checkers: [CostRowChecker?] = []
        var rejects: [Reject] = []
        for plan in plans {
            do {
                let checker = try CostRowChecker.forFile(plan.path, mapping: mapping, prices: prices, pooled: pooled)
                checkers.append(checker)
            } catch let error as CostInputError {
                rejects.append(
                    Reject(file: plan.path, line: 1, field: "", value: "", reason: error.reason)
                        .refusingFile(rows: FileRowCount.dataRows(plan.path, headerLines: 1)))
                checkers.append(nil)
            } catch CSVError.notUTF8 {
                rejects.append(
                    Reject(file: plan.path, line: 1, field: "", value: "", reason: TextEncodingCheck.utf16Reason)
                        .refusingFile(rows: FileRowCount.dataRows(plan.path, headerLines: 1)))
                checkers.append(nil)
            }
        }
        return (checkers, rejects)
    }
}

/// Sums of cost beyond what money can hold, found when the parts of the reading are added up.
struct CostSumError: DiagnosticError {
    package var file: String?
    package var underlying: any Error

    package init(file: String?, underlying: any Error) {
        self.file = file
        self.underlying = underlying
    }

    package var diagnostic: Diagnostic {
        Diagnostic(
            "the cost read in \(file == nil ? "all files" : "this file"), in one currency or one class, is beyond what the tool "
                + "can hold (\(underlying)); check the amounts, or report a shorter window", file: file)
    }
}
