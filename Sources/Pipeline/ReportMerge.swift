import Attribution
import Ingest
import Ledger
import Report
import Support

/// The last step of a report: the partials of every cost file, merged, settled and checked,
/// become every output file in the staging folder.
///
/// One process and a cluster run the same merge, so they write the same bytes.
package enum ReportMerge {
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

    /// Merges `partials` (which must hold every cost file of the layout once, with duplicates
    /// across them settled); rejects of the App Store side are already in `rejects`.
    ///
    /// `attributor` is the partials' (building one indexes every transaction: it is built once).
    package static func run(
        _ loaded: LedgerLoad, attributor: Attributor, appStoreInputs: [InputFileRecord], partials: [CostPartial],
        options: ReportOptions,
        folder: OutputFolder, rejects: RejectLog, timings: Timings
    ) throws -> ReportOutcome {
        let ordered = try inFileOrder(partials, layout: loaded.layout)
        // As one reading lists them: every unusable header first, then rows in file order.
        for partial in ordered { for reject in partial.headerRejects { try rejects.record(reject) } }
        for partial in ordered { for reject in partial.rowRejects { try rejects.record(reject) } }
        try rejects.commit()

        var attributor = attributor
        var totals = attributor.emptyCopy().totals
        var summaries: [CostFileSummary] = []
        var costInputs: [InputFileRecord] = []
        for partial in ordered {
            do {
                try totals.merge(partial.totals)
            } catch {
                throw CostSumError(file: nil, underlying: error)
            }
            summaries += partial.summaries
            costInputs += partial.inputs
        }
        let inputs = (appStoreInputs + costInputs).sorted { $0.path.bytesPrecede($1.path) }

        var outcome = ReportOutcome(
            folder: folder.destination, rejectsFile: folder.rejectsFile, figures: nil, conservation: nil,
            rejects: rejects.tally)
        outcome.costRows = summaries.reduce(0) { $0 + $1.rows }
        outcome.costBytes = summaries.reduce(0) { $0 + $1.bytes }
        outcome.costSeconds = timings.costRows
        outcome.readSequentially = ordered.contains { $0.readSequentially }
        outcome.signatures = SignatureReport.statement(loaded.appStore.input.counts.signatures, options.ledgerOptions)
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
        if let journal = options.journal { figures.attach(journal: try ConsumptionJournal(path: journal)) }
        var accepted = CostTotals()
        for summary in summaries { try accepted.add(summary.acceptedCost) }
        // Pool cost given to usage rows is cost those rows carry.
        figures.allocation = ordered.compactMap(\.allocation).first
        if let allocation = figures.allocation { try accepted.add(allocation.allocated) }
        let conservation = try Conservation(figures: figures, accepted: accepted)
        guard conservation.holds else { throw ConservationError(conservation: conservation) }

        let writeStarted = Clock.monotonicSeconds()
        let context = RunContext(
            inputs: inputs, signatures: outcome.signatures, completeness: outcome.completeness,
            appStoreRejects: AppStoreRefusal(outcome.rejects))
        try ReportFiles.write(figures, conservation: conservation, context: context, to: folder.staging)
        let record = RunRecord(
            options: options, inputs: inputs, summaries: summaries, counts: loaded.appStore.input.counts,
            totals: totals, rejects: rejects.tally, completeness: outcome.completeness, figureCounts: figures.counts,
            conservation: conservation,
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

    /// The attributor of a report over `loaded`'s ledger.
    package static func attributor(_ loaded: LedgerLoad, _ options: ReportOptions) -> Attributor {
        Attributor(ledger: loaded.ledger, window: options.window, grace: options.grace, rates: loaded.rates)
    }

    /// The partials by their first file, after checking that together they hold every cost
    /// file once.
    private static func inFileOrder(_ partials: [CostPartial], layout: InputLayout) throws -> [CostPartial] {
        let position = Dictionary(uniqueKeysWithValues: layout.costFiles.enumerated().map { ($1, $0) })
        var seen: [String: Int] = [:]
        for (index, partial) in partials.enumerated() {
            for file in partial.files {
                guard position[file] != nil else { throw MergeError.unknownFile(file) }
                if seen[file] != nil { throw MergeError.fileTwice(file) }
                seen[file] = index
            }
        }
        let missing = layout.costFiles.filter { seen[$0] == nil }
        guard missing.isEmpty else { throw MergeError.missingFiles(missing) }
        return partials.filter { !$0.files.isEmpty }.sorted { position[$0.files[0]] ?? 0 < position[$1.files[0]] ?? 0 }
    }
}

/// Partials that cannot make one report.
package enum MergeError: Error, CustomStringConvertible {
    case unknownFile(String)
    case fileTwice(String)
    case missingFiles([String])
    case settingsDiffer(String)
    case unsettled(Int)

    package var description: String {
        switch self {
        case .unknownFile(let file):
            "error: a partial read \(file), which is not a cost file of the snapshot: the partials and the snapshot are of different data"
        case .fileTwice(let file):
            "error: \(file) is in two partials; give each cost file to exactly one partial"
        case .missingFiles(let files):
            "error: no partial read \(files.joined(separator: ", ")); run a partial for \(files.count == 1 ? "it" : "them") first"
        case .settingsDiffer(let what):
            "error: the partials were not computed alike (\(what)); run every step with the same snapshot and options"
        case .unsettled(let count):
            "error: \(count) request id\(count == 1 ? " is" : "s are") claimed in more than one partial; "
                + "run `refund-cost settle` and compute those partials again with their seeds"
        }
    }
}
