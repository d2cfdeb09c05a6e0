import Attribution
import Ingest
import Ledger
import Report
import Support

/// The last step of every report: the cost rows read and attributed (in this process, or merged
/// from the partials of a distributed run) are settled, become the figures, are reconciled, and
/// are written as every output file into the staging folder.
///
/// One process and a cluster run the same assembly, so they write the same bytes.
package enum ReportAssembly {
    package struct Timings: Sendable {
        package var started: Double
        package var appStore: Double
        package var costRows: Double

        package init(started: Double, appStore: Double, costRows: Double) {
            self.started = started
            self.appStore = appStore
            self.costRows = costRows
        }
    }

    /// Settles, works out, checks and writes the report of `costs`; the App Store side's rejects
    /// are already in `rejects`.
    ///
    /// `attributor` is the one the costs were read with (building one indexes every transaction).
    package static func run(
        _ loaded: LedgerLoad, attributor: Attributor, appStoreInputs: [InputFileRecord], costs: ParallelCostReading.Result,
        options: RunOptions, folder: OutputFolder, rejects: RejectLog, timings: Timings
    ) throws -> ReportOutcome {
        // As one reading lists them: every unusable header first, then rows in file order.
        for reject in costs.headerRejects { try rejects.record(reject) }
        for reject in costs.rowRejects { try rejects.record(reject) }
        try rejects.commit()

        var attributor = attributor
        var totals = costs.totals
        let summaries = costs.summaries
        let inputs = (appStoreInputs + costs.inputs).sorted { $0.path.bytesPrecede($1.path) }

        var outcome = ReportOutcome(
            folder: folder.destination, rejectsFile: folder.rejectsFile, figures: nil, conservation: nil,
            rejects: rejects.tally)
        outcome.costRows = summaries.reduce(0) { $0 + $1.rows }
        outcome.costBytes = summaries.reduce(0) { $0 + $1.bytes }
        outcome.costSeconds = timings.costRows
        outcome.readSequentially = costs.readSequentially
        outcome.signatures = SignatureReport.statement(loaded.appStore.input.counts.signatures, options.appStore)
        outcome.filesVerifiedEarlier = loaded.appStore.input.counts.filesVerifiedEarlier
        outcome.incompleteHistories = loaded.appStore.input.counts.incompleteHistories
        outcome.warnings = loaded.warnings
        outcome.completeness = InputCount.completeness(
            layout: loaded.layout, counts: loaded.appStore.input.counts, summaries: summaries, rejects: outcome.rejects)
        // --max-rejects counts rows: a file refused whole weighs all of its rows.
        guard rejects.rows <= options.maxRejects else {
            outcome.failedOnRejects = true
            return outcome
        }

        if !options.allowEmpty {
            try EmptyWindowError.check(
                window: options.window, totals: totals, summaries: summaries, ledger: loaded.ledger,
                counts: loaded.appStore.input.counts)
        }
        let draws = try attributor.settle(&totals)
        var figures = try ReportFigures(
            ledger: loaded.ledger, totals: totals, window: options.window, rates: loaded.rates, credits: attributor.credits,
            draws: draws, evidence: loaded.evidence, policy: options.consumptionPolicy)
        if let journal = options.journal { try figures.attach(journal: try ConsumptionJournal(path: journal)) }
        var accepted = CostTotals()
        for summary in summaries { try accepted.add(summary.acceptedCost) }
        // Pool cost given to usage rows is cost those rows carry.
        figures.allocation = costs.allocation
        if let allocation = figures.allocation { try accepted.add(allocation.allocated) }
        let conservation = try Conservation(figures: figures, accepted: accepted)
        guard conservation.holds else { throw ConservationError(conservation: conservation) }

        let writeStarted = Clock.monotonicSeconds()
        let context = RunContext(
            inputs: inputs, signatures: outcome.signatures, completeness: outcome.completeness,
            appStoreRejects: AppStoreRefusal(outcome.rejects), appStoreCounts: loaded.appStore.input.counts.lines)
        try ReportFiles.write(figures, conservation: conservation, context: context, to: folder.staging)
        let record = RunRecord(
            options: options, inputs: inputs, summaries: summaries, counts: loaded.appStore.input.counts,
            totals: totals, rejects: rejects.tally, completeness: outcome.completeness, figureCounts: figures.counts,
            answering: figures.answering, conservation: conservation,
            unmatchedAppAccountTokens: loaded.ledger.unmatchedAppAccountTokens,
            timings: [
                ("app_store_and_ledger", timings.appStore), ("cost_rows", timings.costRows),
                ("write", Clock.monotonicSeconds() - writeStarted), ("total", Clock.monotonicSeconds() - timings.started),
            ])
        try record.write(to: folder.staging + "/run.json")
        outcome.figures = figures
        outcome.conservation = conservation
        return outcome
    }

    /// The attributor of a report over `loaded`'s ledger: a template, whose copies take the rows.
    package static func attributor(_ loaded: LedgerLoad, _ options: RunOptions) -> Attributor {
        Attributor.template(ledger: loaded.ledger, window: options.window, grace: options.grace, rates: loaded.rates)
    }

}
