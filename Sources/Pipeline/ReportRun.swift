import Attribution
import Ingest
import Ledger
import Report
import Support

/// The monthly batch: read everything, attribute every cost row, write every output file.
///
/// Either every file of `OUT/LABEL/` is replaced at once, or nothing there changes.
package enum ReportRun {
    package static func execute(_ options: RunOptions, progress: @escaping @Sendable (ReportProgress) -> Void = { _ in })
        throws -> ReportOutcome
    {
        try inOutputFolder(options) { folder, rejects, started in
            try run(options, folder: folder, rejects: rejects, started: started, progress: progress)
        }
    }

    /// Runs `body` with the staging folder of `OUT/LABEL/` and its reject log, then swaps the
    /// folder in; when `body` fails, the previous report stays and the rejects found so far go
    /// to `OUT/LABEL.rejects.csv`.
    package static func inOutputFolder(
        _ options: RunOptions, _ body: (OutputFolder, RejectLog, Double) throws -> ReportOutcome
    ) throws -> ReportOutcome {
        let started = Clock.monotonicSeconds()
        let folder = try OutputFolder(out: options.out, label: options.window.label)
        let rejects = RejectLog()
        do {
            try rejects.streamTo(folder.staging + "/rejects.csv")
            var outcome = try body(folder, rejects, started)
            if outcome.failedOnRejects { try folder.keepRejectsOnly() } else { try folder.commit() }
            outcome.totalSeconds = Clock.monotonicSeconds() - started
            return outcome
        } catch {
            try? rejects.commit()
            let kept = rejects.count > 0 && (try? folder.keepRejectsOnly()) != nil
            folder.abandon()
            throw ReportRunError(
                underlying: error, destination: folder.destination, rejectsFile: kept ? folder.rejectsFile : nil)
        }
    }

    /// The stages of a report, in order: the App Store data and the ledger (with the small
    /// inputs), the cost rows read and attributed on every core, then the assembly: credits
    /// settled, figures, reconciliation, files. (A distributed run makes the same three steps
    /// across machines, `Distributed/`.)
    private static func run(
        _ options: RunOptions, folder: OutputFolder, rejects: RejectLog, started: Double,
        progress: @escaping @Sendable (ReportProgress) -> Void
    ) throws -> ReportOutcome {
        // 1. Inputs of the App Store side, and the ledger built from them.
        let loaded = try LedgerLoad(
            data: options.data, options: options.appStore, rejects: rejects, verifiedFiles: options.verifiedFilesRecord,
            progress: { bytes, lines in
                progress(ReportProgress(file: "notifications and history", bytes: bytes, rows: lines, unit: "lines"))
            })
        let appStoreInputs = try loaded.appStoreInputRecords(root: options.data)
        let appStoreSeconds = Clock.monotonicSeconds() - started

        // 2. The cost rows, each given its class (a bill spread over its usage on the way).
        let costStarted = Clock.monotonicSeconds()
        let attributor = ReportAssembly.attributor(loaded, options)
        let reading = try ParallelCostReading.run(
            files: loaded.layout.costFiles, root: options.data, mapping: options.costColumns, template: attributor,
            threads: options.threads,
            progress: { bytes, rows in progress(ReportProgress(file: "costs", bytes: bytes, rows: rows)) })
        let timings = ReportAssembly.Timings(
            started: started, appStore: appStoreSeconds, costRows: Clock.monotonicSeconds() - costStarted)

        // 3. Figures, reconciliation and every file.
        let outcome = try ReportAssembly.run(
            loaded, attributor: attributor, appStoreInputs: appStoreInputs, costs: reading,
            options: options, folder: folder, rejects: rejects, timings: timings)
        if options.endsProcess { ProcessLifetime.keepUntilExit(loaded, attributor, reading) }
        return outcome
    }
}
