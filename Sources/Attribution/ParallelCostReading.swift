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
        package static func joined(_ readings: [Result], totals empty: AttributionTotals, summingTotals: Bool = true) throws
            -> Result
        {
            var joined = Result(
                totals: empty, summaries: [], inputs: [], readSequentially: false, headerRejects: [], rowRejects: [],
                allocation: nil)
            for reading in readings {
                do {
                    if summingTotals { try joined.totals.merge(reading.totals) }
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

    /// Reads every cost file (or, with `planned`, the parts it names of each: a piece of a file in
    /// a distributed run); attributes its rows with copies of `template`, or, without one,
    /// only checks and counts them (`validate`: nothing is attributed, the totals are empty, each
    /// cost must convert by `checkingRates`, and a bill's outcome is what its usage would receive).
    ///
    /// Each reading claims request ids in a registry from `registry`; with `countsRequestsFirst`,
    /// the usage files' ids are counted on disk first (`RequestCensus`, `countingProgress` hears
    /// it) and each registry holds the ids counted more than once alone (`registry` is then not
    /// used).
    package static func run(
        files: [String], planned: [FileSplitter]? = nil, root: String, mapping: CostColumnMap, template: Attributor?,
        threads: Int, checkingRates: ExchangeRates? = nil,
        registry: @escaping @Sendable () -> RequestRegistry = { RequestRegistry() }, countsRequestsFirst: Bool = false,
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
        countingProgress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) throws -> Result {
        let threads = max(1, threads)
        // Checksums and split points, one file per thread.
        let plans = try planned ?? plan(files, parts: threads == 1 ? 1 : threads * 2)
        // Usage rows without cost are priced from the data folder's prices.csv, or paid by pools.
        let prices = try PriceTable(dataFolder: root)
        let bill = try CostPoolBill(plans.filter { FocusPoolFile.isPoolFile($0.path) }.map(\.path), root: root)
        let usagePlans = plans.filter { !bill.files.contains($0.path) }
        func attributeAll() throws -> Attributed {
            let registry =
                countsRequestsFirst
                ? try registryOfRepeats(
                    usagePlans, mapping: mapping, prices: prices, pooled: bill.categories, threads: threads,
                    progress: countingProgress)
                : registry
            let reading = Reading(
                root: root, mapping: mapping, prices: prices, bill: bill, template: template, rates: checkingRates,
                registry: registry, progress: progress)
            var result: Attributed
            do {
                result = try reading.attribute(usagePlans, threads: threads)
            } catch let error as CostSumError where threads > 1 {
                // Parts summed apart overflowed only when added up: in file order the row that
                // overflows is found, and the error names its file and line.
                _ = try reading.attribute(inOrder(usagePlans), threads: 1)
                throw error
            }
            if needsReadingInOrder(result.summaries, threads: threads) {
                result = try reading.attribute(inOrder(usagePlans), threads: 1)
                result.readSequentially = true
            }
            return result
        }
        // The ids are counted in the files planned, and the rows read from them.
        let result = try countsRequestsFirst ? readingPlannedFiles(usagePlans, attributeAll) : attributeAll()
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
    /// occurrence counts, as `run` does. With `countsRequestsFirst`, as in `run`, the registries
    /// hold the ids counted more than once alone (`registry` is then not used).
    package static func collect<Sink: CostRowSink>(
        files: [String], spans: [String: FileSpan], root: String, mapping: CostColumnMap, sink: Sink, threads: Int,
        registry: @escaping @Sendable () -> RequestRegistry, countsRequestsFirst: Bool = false
    ) throws -> Collected<Sink> {
        let threads = max(1, threads)
        if let bill = files.first(where: FocusPoolFile.isPoolFile) { throw PoolsNeedOneProcessError(file: bill) }
        let whole = files.filter { (spans[$0]?.start ?? 0) == 0 }
        var plans = try plan(whole, parts: threads == 1 ? 1 : threads * 2).map { plan in
            guard let end = spans[plan.path]?.end, end < plan.size else { return plan }
            var clipped = plan
            clipped.size = end
            // The checksum is of the whole file: the span's bytes have none.
            clipped.sha256 = ""
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
        func readAll() throws -> Collected<Sink> {
            let registry =
                countsRequestsFirst
                ? try registryOfRepeats(
                    plans, mapping: mapping, prices: prices, pooled: [], threads: threads, progress: { _, _ in })
                : registry
            func read(_ plans: [FileSplitter], threads: Int) throws -> Collected<Sink> {
                try readParts(
                    plans, mapping: mapping, prices: prices, pooled: [], template: sink, threads: threads,
                    requests: registry(), progress: { _, _ in })
            }
            let collected = try read(plans, threads: threads)
            guard needsReadingInOrder(collected.summaries, threads: threads) else { return collected }
            return try read(inOrder(plans), threads: 1)
        }
        return try countsRequestsFirst ? readingPlannedFiles(plans, readAll) : readAll()
    }

    /// Runs `read` with every file of `plans` held to the one planned, then refuses the reading
    /// when one was not: its request ids may have been counted in one file and its rows read in
    /// another.
    ///
    /// While `read` runs, each opening of a file must find the inode planned (another file
    /// renamed over it is refused). After, a file whose inode changed since it was planned must
    /// still begin with the bytes planned (an append is read up to the length planned; a file
    /// written over is refused), and be the same inode (the inode of one replaced twice may
    /// come back).
    static func readingPlannedFiles<Value>(_ plans: [FileSplitter], _ read: () throws -> Value) throws -> Value {
        var pinned: [String] = []
        for plan in plans where PinnedFiles.pinned(plan.path) == nil {
            guard let identity = plan.identity else { continue }
            PinnedFiles.pin(plan.path, .inode(identity.inode, explanation: CostFileChangedWhileReadError.replaced))
            pinned.append(plan.path)
        }
        defer { for path in pinned { PinnedFiles.unpin(path) } }
        let value = try read()
        for plan in plans {
            guard let planned = plan.identity else { continue }
            guard let now = FileSystem.identity(plan.path), now.isSameFile(as: planned) else {
                throw CostFileChangedWhileReadError(path: plan.path, reason: CostFileChangedWhileReadError.replaced)
            }
            guard now.changed != planned.changed, !plan.sha256.isEmpty else { continue }
            guard try FileSplitter.digest(plan.path, bytes: plan.size) == plan.sha256 else {
                throw CostFileChangedWhileReadError(path: plan.path, reason: CostFileChangedWhileReadError.rewritten)
            }
        }
        return value
    }

    /// Registries that hold only the request ids `plans` hold more than once.
    ///
    /// They are found by counting the ids on disk first (`RequestCensus`; `progress` hears its
    /// bytes and rows). Files without request ids need no count, nor the temporary folder.
    static func registryOfRepeats(
        _ plans: [FileSplitter], mapping: CostColumnMap, prices: PriceTable, pooled: Set<String>, threads: Int,
        progress: @escaping @Sendable (Int, Int) -> Void
    ) throws -> @Sendable () -> RequestRegistry {
        let (checkers, _) = try headers(plans, mapping: mapping, prices: prices, pooled: pooled)
        guard checkers.contains(where: { $0?.columns.requestID != nil || $0?.columns.format.readsJSONLines == true }) else {
            return { RequestRegistry(repeatedKeys: []) }
        }
        let hash = SipHash.randomlyKeyed()
        let census = try RequestCensus(hash: hash, bytes: plans.reduce(0) { $0 + $1.size })
        try countRequests(plans, checkers: checkers, threads: threads, census: census, progress: progress)
        let repeated = try census.repeatedKeys(threads: threads)
        // Past a quarter of the ids noted, the repeated keys and their entries (about 34 bytes
        // each) weigh more than a registry of every id (16 bytes a distinct one): hold every id.
        if repeated.count > (try census.notedCount()) / 4 { return { RequestRegistry(hash: hash) } }
        return { RequestRegistry(hash: hash, repeatedKeys: repeated) }
    }

    /// True when a request id came back with other content in parts read apart, or came back
    /// on a row a pool pays for: which of its rows counts depends on the order the parts were
    /// read (for a pool, which row gets a left-over step), so the files are read again.
    static func needsReadingInOrder(_ summaries: [CostFileSummary], threads: Int) -> Bool {
        threads > 1 && summaries.contains { $0.conflicts > 0 || $0.pooledRepeats > 0 }
    }

    /// `plans` as one part a file, from where its first part starts: read on one thread, in
    /// file order, the first row of a request id is the one that counts, as in one reading.
    static func inOrder(_ plans: [FileSplitter]) -> [FileSplitter] {
        plans.map { plan in
            var whole = plan
            let first = plan.parts.first
            whole.parts = [FilePart(path: plan.path, start: first?.start ?? 0, end: plan.size, firstLine: first?.firstLine ?? 1)]
            return whole
        }
    }

    static func plan(_ files: [String], parts: Int) throws -> [FileSplitter] {
        try Parallel.map(files.count, threads: FileSystem.processorCount) { index in
            // JSON lines are read whole: a CSV record boundary means nothing inside JSON.
            try FileSplitter(path: files[index], parts: CostFormat.isJSONLines(files[index]) ? 1 : parts)
        }
    }

}

/// A cost file replaced by another, or written over, while the run read it.
struct CostFileChangedWhileReadError: DiagnosticError {
    static let replaced =
        "another file was put in its place while the run read it (renamed over it): its request ids may have been "
        + "counted in one and its rows read in the other; run again once it stays in place"
    static let rewritten =
        "it was written over while the run read it (its first bytes are no longer those the run began with): its "
        + "request ids may have been counted in one version and its rows read in the other; run again once it is complete"

    var path: String
    var reason: String
    var diagnostic: Diagnostic { Diagnostic(reason, file: path) }
}
