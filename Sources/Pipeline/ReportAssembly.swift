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
enum ReportAssembly {
    struct Timings: Sendable {
        package var started: Double
        package var appStore: Double
        package var costRows: Double

        package init(started: Double, appStore: Double, costRows: Double) {
            self.started = started
            self.appStore = appStore
            self.costRows = costRows
        }
    }

    /// Settles, works out, checks and writes the report of `costs`; every reject, the App Store
    /// side's and the cost files', is already in `rejects`.
    ///
    /// `attributor` is the one the costs were read with (building one indexes every transaction),
    /// let go once the credits are settled: the figures do not read it. `costs` is consumed: its
    /// totals are settled in place, not copied.
    package static func run(
        _ loaded: LedgerLoad, attributor: consuming Attributor, appStoreInputs: [InputFileRecord],
        costs reading: consuming ParallelCostReading.Result, options: RunOptions, folder: OutputFolder,
        rejects: RejectLog, warnings: [Diagnostic], timings: Timings
    ) throws -> ReportOutcome {
        var costs = consume reading
        try rejects.commit()
        let summaries = costs.summaries
        let inputs = (appStoreInputs + costs.inputs).sorted { $0.path.bytesPrecede($1.path) }
        let tally = rejects.tally
        let counts = loaded.appStore.input.counts
        var reading = ReportReading(
            rejects: tally,
            completeness: InputCount.completeness(layout: loaded.layout, counts: counts, summaries: summaries, rejects: tally),
            warnings: warnings, signatures: SignatureReport.statement(counts.signatures, options.appStore),
            filesVerifiedEarlier: counts.filesVerifiedEarlier, readSequentially: costs.readSequentially,
            costRows: summaries.reduce(0) { $0 + $1.rows }, costBytes: summaries.reduce(0) { $0 + $1.bytes },
            costSeconds: timings.costRows)
        if let verdict = RejectLimitError.verdict(
            tally, maxRejects: options.maxRejects,
            consequence:
                "The previous report in \(folder.destination)/, if any, is unchanged; every rejected line is in \(folder.rejectsFile)."
        ) {
            return .refused(ReportRefused(verdict: verdict, reading: reading))
        }
        if !options.allowEmpty {
            try EmptyWindowError.check(
                window: options.window, totals: costs.totals, summaries: summaries, ledger: loaded.ledger, counts: counts)
        }
        let pipeline = Pipeline(options, rejects: rejects)
        let settled = try pipeline.settle(&costs, with: attributor)
        // Its index of every transaction is let go before the figures are worked out beside the ledger.
        _ = consume attributor
        let journal = try options.journal.map { try ConsumptionJournal(path: $0) }
        try journal?.requireStore(nil, reading: true)
        let playJournal = try options.playJournal.map { try ConsumptionJournal(path: $0) }
        try playJournal?.requireStore(AnswerWindow.play.journalStore, reading: true)
        let figures = try ReportFigures(
            ledger: loaded.ledger, totals: settled.totals, window: options.window, rates: loaded.rates,
            credits: settled.credits, draws: settled.draws, evidence: loaded.evidence, policy: options.consumptionPolicy,
            chargebackFee: options.configuration.chargebackFee ?? .zero, allocation: costs.allocation, journal: journal?.entries,
            journalBegins: journal?.start?.begins, playJournal: playJournal?.entries,
            playJournalBegins: playJournal?.start?.begins)
        let unknownRevenue = figures.chargebacks.filter { $0.received == nil }.map(\.transaction.id)
        if let first = unknownRevenue.first {
            // Its loss would read as the delivery cost and the fee alone: too small, and not said.
            reading.warnings.append(
                .warning(
                    "\(HumanText.count(unknownRevenue.count)) Google Play chargeback\(unknownRevenue.count == 1 ? "'s order does" : "s' orders do") "
                        + "not say what Google passed on (developerRevenueInBuyerCurrency; \(first)"
                        + (unknownRevenue.count > 1 ? " and more" : "")
                        + "): their lost in chargebacks.csv counts the delivery cost and the fee only; fetch orders again"))
        }
        var accepted = CostTotals()
        for summary in summaries { try accepted.add(summary.acceptedCost) }
        // Pool cost given to usage rows is cost those rows carry.
        if let allocation = figures.allocation { try accepted.add(allocation.allocated) }
        let conservation = try Conservation(figures: figures, accepted: accepted)
        guard conservation.holds else { throw ConservationError(conservation: conservation) }

        // What working out the figures let go goes back before the files are made.
        FreedMemory.giveBack()
        let writeStarted = Clock.monotonicSeconds()
        let context = RunContext(
            inputs: inputs, signatures: reading.signatures, completeness: reading.completeness,
            appStoreRejects: AppStoreRefusal(tally), appStoreCounts: counts.lines)
        try ReportFiles.write(figures, conservation: conservation, context: context, to: folder.staging)
        let record = RunRecord(
            options: options, inputs: inputs, summaries: summaries, counts: counts, totals: settled.totals, rejects: tally,
            completeness: reading.completeness, figureCounts: figures.counts, answering: figures.answering,
            playAnswering: figures.playAnswering,
            conservation: conservation, unmatchedAppAccountTokens: loaded.ledger.unmatchedAppAccountTokens,
            timings: [
                ("app_store_and_ledger", timings.appStore), ("cost_rows", timings.costRows),
                ("write", Clock.monotonicSeconds() - writeStarted), ("total", Clock.monotonicSeconds() - timings.started),
            ])
        try record.write(to: folder.staging + "/run.json")
        return .succeeded(
            ReportWritten(folder: folder.destination, figures: figures, conservation: conservation, reading: reading))
    }
}
