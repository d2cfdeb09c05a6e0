import Attribution
import Ingest
import Ledger
import Support

/// The stages every command runs, written once.
///
///     inputs and ledger  ->  cost rows into a sink  ->  settled  ->  figures  ->  outputs
///       `load`               `attribute`, `check`,     `settle`     `ReportFigures`, `consumption`
///                            `account`, `collect`
///
/// A command is a client: it makes a pipeline of its options, runs the stages it needs in this
/// order, and chooses what the cost rows go into (an attributor for a report, a partial or an
/// answer; nothing for `validate`; one account's sums for `explain`; respond's usage records)
/// and what is written. It never assembles the stages itself.
///
/// Rejects flow one way: every stage records its rejected lines in `rejects` as it finishes,
/// in the order a reading of everything meets them (the App Store side, then every unusable
/// cost header, then the cost rows in file and line order). What a run says but does not stop
/// for is collected in `warnings`, as diagnostics, and printed by the command in one place.
package final class Pipeline {
    package let options: RunOptions
    package let rejects: RejectLog
    /// Where the stages say what they do not stop for (the command prints them in one place).
    package let diagnostics: DiagnosticCollector

    package var warnings: [Diagnostic] { diagnostics.diagnostics }

    package init(
        _ options: RunOptions, rejects: RejectLog = RejectLog(), diagnostics: DiagnosticCollector = DiagnosticCollector()
    ) {
        self.options = options
        self.rejects = rejects
        self.diagnostics = diagnostics
    }

    // MARK: inputs and ledger

    /// The App Store side read and checked, the ledger built from it, and the rates and evidence.
    ///
    /// `keepingRecords` keeps the records read (a snapshot writes them, `explain` tells an
    /// account's rows); `decoded` takes App Store pieces decoded elsewhere instead of reading
    /// the files.
    package func load(
        keepingRecords: Bool = false, readingPlay: Bool = true, keepingPlay: Bool = false, decoded: DecodedPieces? = nil,
        progress: @escaping @Sendable (ReportProgress) -> Void = { _ in }
    ) throws -> LedgerLoad {
        let loaded = try LedgerLoad(
            data: options.data, options: options.appStore, rejects: rejects,
            verifiedFiles: decoded == nil ? options.verifiedFilesRecord : nil, decoded: decoded,
            keepingRecords: keepingRecords, readingPlay: readingPlay, keepingPlay: keepingPlay,
            progress: { bytes, lines in
                progress(ReportProgress(file: "notifications and history", bytes: bytes, rows: lines, unit: "lines"))
            })
        diagnostics.emit(contentsOf: loaded.warnings + loaded.incompleteHistories)
        return loaded
    }

    // MARK: cost rows

    /// The attributor a report's cost rows are read with, over `loaded`'s ledger: a template
    /// whose copies take the rows (building one indexes every transaction: build it once).
    package func attributor(_ loaded: LedgerLoad) -> Attributor {
        options.configuration.attributor(ledger: loaded.ledger, rates: loaded.rates)
    }

    /// Every cost row of `files` (default: every cost file) given its class by copies of
    /// `attributor`, on every thread; a bill spread over its usage on the way.
    ///
    /// With `planned`, the parts it lists of the files (a piece of a split file); without
    /// `judgesHeaders`, a later piece's, a header refused is left to the first piece's reading.
    package func attribute(
        _ loaded: LedgerLoad, with attributor: Attributor, files: [String]? = nil, planned: [FileSplitter]? = nil,
        judgesHeaders: Bool = true, threads: Int? = nil,
        registry: @escaping @Sendable () -> RequestRegistry = { RequestRegistry() }, countsRequestsFirst: Bool = false,
        progress: @escaping @Sendable (ReportProgress) -> Void = { _ in }
    ) throws -> ParallelCostReading.Result {
        var reading = try ParallelCostReading.run(
            files: files ?? loaded.layout.costFiles, planned: planned, root: options.data, mapping: options.costColumns,
            template: attributor, threads: threads ?? options.threads, registry: registry,
            countsRequestsFirst: countsRequestsFirst,
            progress: { bytes, rows in progress(ReportProgress(file: "costs", bytes: bytes, rows: rows)) },
            countingProgress: { bytes, rows in progress(ReportProgress(file: Self.countingPhase, bytes: bytes, rows: rows)) })
        // A file's header is judged by the reading of its first piece; a later piece's only
        // skips the rows of a file refused.
        if !judgesHeaders { reading.headerRejects = [] }
        try record(reading)
        return reading
    }

    /// What a run says while it notes the cost rows' request ids, before it reads the rows.
    static let countingPhase = "request ids of the costs"

    /// Every cost row checked and counted as a report checks it, over all time, none
    /// attributed (`validate`): each cost must convert by the data's rates.
    package func check(
        _ loaded: LedgerLoad, progress: @escaping @Sendable (ReportProgress) -> Void = { _ in }
    ) throws -> ParallelCostReading.Result {
        let reading = try ParallelCostReading.run(
            files: loaded.layout.costFiles, root: options.data, mapping: options.costColumns, template: nil,
            threads: options.threads, checkingRates: loaded.rates, countsRequestsFirst: true,
            progress: { bytes, rows in progress(ReportProgress(file: "costs", bytes: bytes, rows: rows)) },
            countingProgress: { bytes, rows in progress(ReportProgress(file: Self.countingPhase, bytes: bytes, rows: rows)) })
        try record(reading)
        return reading
    }

    /// One account's cost rows, classified as the report classifies them (`explain`).
    ///
    /// A FOCUS bill's shares are known only once all usage is counted: its files are left out here.
    package func account(_ accountID: String, _ loaded: LedgerLoad) throws -> AccountCosts {
        let sink = AccountCosts(accountID: accountID, ledger: loaded.ledger, rates: loaded.rates, grace: options.grace)
        let usage = loaded.layout.costFiles.filter { !FocusPoolFile.isPoolFile($0) }
        let collected = try collect(files: usage, spans: [:], into: sink, countsRequestsFirst: true)
        return try AccountCosts.merged(collected.sinks, template: sink)
    }

    /// `accountID`'s delivery cost while each of `orders` gave access (explain's Play part).
    package func playOrderCosts(_ accountID: String, orders: [PlayOrderAccess], _ loaded: LedgerLoad) throws -> PlayOrderCosts {
        let sink = PlayOrderCosts(account: accountID, orders: orders, asOf: loaded.ledger.options.asOf, rates: loaded.rates)
        let usage = loaded.layout.costFiles.filter { !FocusPoolFile.isPoolFile($0) }
        // The same rows `account` read: their rejects are recorded once, by it.
        let collected = try ParallelCostReading.collect(
            files: usage, spans: [:], root: options.data, mapping: options.costColumns, sink: sink, threads: options.threads,
            registry: { RequestRegistry() }, countsRequestsFirst: true)
        return try PlayOrderCosts.merged(collected.sinks, template: sink)
    }

    /// The cost rows of `files` over `spans` (whole files when a span is missing) into copies of
    /// `sink`, every row checked as a report checks it, nothing attributed: the usage respond
    /// keeps, one account's sums.
    package func collect<Sink: CostRowSink>(
        files: [String], spans: [String: FileSpan], into sink: Sink,
        registry: @escaping @Sendable () -> RequestRegistry = { RequestRegistry() }, countsRequestsFirst: Bool = false
    ) throws -> ParallelCostReading.Collected<Sink> {
        let collected = try ParallelCostReading.collect(
            files: files, spans: spans, root: options.data, mapping: options.costColumns, sink: sink,
            threads: options.threads, registry: registry, countsRequestsFirst: countsRequestsFirst)
        for reject in collected.headerRejects + collected.rowRejects { try rejects.record(reject) }
        return collected
    }

    /// A reading's rejects, into the log: every unusable header first, then the rows in file
    /// order, as one reading lists them (the merge records its partials' with this too).
    package func record(_ reading: ParallelCostReading.Result) throws {
        for reject in reading.headerRejects + reading.rowRejects { try rejects.record(reject) }
    }

    // MARK: settling and figures

    /// The totals of `reading` with every credit row settled against its packs, in place.
    ///
    /// Settling writes the sums of the transactions that credit rows move cost to: settled in a
    /// copy while `reading` still held its totals, every such array would be copied whole (48
    /// bytes a transaction) at the report's peak.
    package func settle(_ reading: inout ParallelCostReading.Result, with attributor: Attributor) throws -> Settled {
        var attributor = attributor
        let draws = try attributor.settle(&reading.totals)
        return Settled(totals: reading.totals, credits: attributor.credits, draws: draws)
    }

    /// The totals an attributor took the rows into itself (respond over a few accounts), settled.
    package func settle(rowsOf attributor: Attributor) throws -> Settled {
        var attributor = attributor
        var totals = attributor.totals
        let draws = try attributor.settle(&totals)
        return Settled(totals: totals, credits: attributor.credits, draws: draws)
    }

    /// Only the consumption requests' figures (respond): the rest of a report is not needed to
    /// answer them.
    package func consumption(_ loaded: LedgerLoad, _ settled: Settled) -> [ConsumptionFigure] {
        ConsumptionFigure.all(
            ledger: loaded.ledger, totals: settled.totals, credits: settled.credits, draws: settled.draws,
            evidence: loaded.evidence, window: options.window, policy: options.consumptionPolicy)
    }

    /// Stops the run, saying `consequence`, when more rows were rejected so far than
    /// `--max-rejects` allows.
    package func refuseBeyondLimit(consequence: String) throws {
        let tally = rejects.tally
        if let verdict = RejectLimitError.verdict(tally, maxRejects: options.maxRejects, consequence: consequence) {
            throw verdict
        }
    }

    /// Settled totals, with the credits and what each credit row drew.
    package struct Settled: Sendable {
        package var totals: AttributionTotals
        package var credits: CreditLedger
        package var draws: CreditDraws
    }
}
