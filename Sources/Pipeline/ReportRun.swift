import Attribution
import Ingest
import Ledger
import Report
import Support

/// What `refund-cost report` was asked to do.
package struct ReportOptions: Sendable {
    package var data: String
    package var out: String
    package var window: ReportWindow
    package var environment: AppStoreEnvironment = .production
    package var grace: TimeSpan = .hours(1)
    package var prematureWindow: TimeSpan = .hours(2)
    package var currency: CurrencyCode = .usd
    package var maxRejects = 0
    package var costColumns: [CostColumns.Name: String] = [:]
    package var consumptionPolicy = ConsumptionPolicy()
    /// Threads reading cost files (default: every core).
    package var threads = FileSystem.processorCount

    package init(data: String, out: String, window: ReportWindow) {
        self.data = data
        self.out = out
        self.window = window
    }

    /// The options the ledger is built with: as of the window's as-of time.
    var ledgerOptions: LedgerLoad.Options {
        var ledger = LedgerLoad.Options(asOf: window.asOf)
        ledger.environment = environment
        ledger.prematureWindow = prematureWindow
        ledger.currency = currency
        return ledger
    }
}

/// How a report run ended.
package struct ReportOutcome: Sendable {
    package var folder: String
    package var figures: ReportFigures?
    package var conservation: Conservation?
    package var rejects: Int
    package var rejectSamples: [Reject]
    package var costRows: Int
    package var costBytes: Int
    package var costSeconds: Double
    package var totalSeconds: Double
    /// True when rejects exceeded `--max-rejects`: only rejects.csv was written.
    package var failedOnRejects: Bool
    /// A request id was reused with different content, so cost files were read again in order.
    package var readSequentially: Bool
}

/// Progress a run reports while it reads cost files.
package struct ReportProgress: Sendable {
    package var file: String
    package var bytes: Int
    package var rows: Int
}

/// The monthly batch: read everything, attribute every cost row, write every output file.
package enum ReportRun {
    package static func execute(_ options: ReportOptions, progress: @escaping @Sendable (ReportProgress) -> Void = { _ in })
        throws -> ReportOutcome
    {
        let started = Clock.monotonicSeconds()
        let folder = try OutputFolder(out: options.out, label: options.window.label)
        do {
            return try run(options, folder: folder, started: started, progress: progress)
        } catch {
            folder.abandon()
            throw error
        }
    }

    private static func run(
        _ options: ReportOptions, folder: OutputFolder, started: Double, progress: @escaping @Sendable (ReportProgress) -> Void
    ) throws -> ReportOutcome {
        let rejects = RejectLog()
        try rejects.streamTo(folder.staging + "/rejects.csv")
        let window = options.window
        let loaded = try LedgerLoad(data: options.data, options: options.ledgerOptions, rejects: rejects)
        let (layout, load, ledger, rates) = (loaded.layout, loaded.appStore, loaded.ledger, loaded.rates)
        let appStoreSeconds = Clock.monotonicSeconds() - started

        var attributor = Attributor(ledger: ledger, window: window, grace: options.grace, rates: rates)
        let costStarted = Clock.monotonicSeconds()
        let reading = try ParallelCostReading.run(
            files: layout.costFiles, root: options.data, mapping: options.costColumns, template: attributor, rejects: rejects,
            threads: options.threads
        ) { bytes, rows in progress(ReportProgress(file: "costs", bytes: bytes, rows: rows)) }
        let summaries = reading.summaries
        var inputs = reading.inputs
        var accepted = CostTotals()
        for summary in summaries { try accepted.add(summary.acceptedCost) }
        let costSeconds = Clock.monotonicSeconds() - costStarted
        for path in layout.allFiles where !layout.costFiles.contains(path) {
            let checksum = try load.input.checksums[path] ?? SHA256.file(path)
            inputs.append(
                InputFileRecord(
                    path: HumanText.relative(path, to: options.data), bytes: FileSystem.fileSize(path) ?? 0, sha256: checksum))
        }
        inputs.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        try rejects.commit()

        var outcome = ReportOutcome(
            folder: folder.destination, figures: nil, conservation: nil, rejects: rejects.count,
            rejectSamples: rejects.firstRejects,
            costRows: summaries.reduce(0) { $0 + $1.rows }, costBytes: summaries.reduce(0) { $0 + $1.bytes },
            costSeconds: costSeconds, totalSeconds: 0, failedOnRejects: false, readSequentially: reading.readSequentially)
        if rejects.count > options.maxRejects {
            try folder.commitOnly(["rejects.csv"])
            outcome.failedOnRejects = true
            outcome.totalSeconds = Clock.monotonicSeconds() - started
            return outcome
        }

        var totals = reading.totals
        let draws = try attributor.settle(&totals)
        let figures = try ReportFigures(
            ledger: ledger, totals: totals, window: window, rates: rates, credits: attributor.credits, draws: draws,
            evidence: loaded.evidence, policy: options.consumptionPolicy)
        let conservation = try Conservation(figures: figures, accepted: accepted)
        guard conservation.holds else { throw ConservationError(conservation: conservation) }

        let writeStarted = Clock.monotonicSeconds()
        try ReportFiles.write(figures, conservation: conservation, inputs: inputs, to: folder.staging)
        let record = RunRecord(
            options: options, inputs: inputs, summaries: summaries, counts: load.input.counts, totals: totals,
            rejects: rejects.count, conservation: conservation,
            timings: [
                ("app_store_and_ledger", appStoreSeconds), ("cost_rows", costSeconds),
                ("write", Clock.monotonicSeconds() - writeStarted), ("total", Clock.monotonicSeconds() - started),
            ])
        try record.write(to: folder.staging + "/run.json")
        try folder.commit()
        outcome.figures = figures
        outcome.conservation = conservation
        outcome.totalSeconds = Clock.monotonicSeconds() - started
        return outcome
    }
}
