import Attribution
import Ingest
import Ledger
import Report
import Support

/// The monthly batch: read everything, attribute every cost row, write every output file.
///
/// Either every file of `OUT/LABEL/` is replaced at once, or nothing there changes.
package enum ReportRun {
    /// Runs the report of `options`.
    ///
    /// A run that stops on an input it cannot use ends `failed`, with its diagnostic; nothing it
    /// read is lost (its rejects so far are kept beside the previous report).
    package static func execute(_ options: RunOptions, progress: @escaping @Sendable (ReportProgress) -> Void = { _ in })
        -> ReportOutcome
    {
        inOutputFolder(options) { folder, rejects, started in
            try run(options, folder: folder, rejects: rejects, started: started, progress: progress)
        }
    }

    /// Runs `body` with the staging folder of `OUT/LABEL/` and its reject log, then swaps the
    /// folder in; when `body` fails, the previous report stays and the rejects found so far go
    /// to `OUT/LABEL.rejects.csv`.
    static func inOutputFolder(
        _ options: RunOptions, _ body: (OutputFolder, RejectLog, Double) throws -> ReportOutcome
    ) -> ReportOutcome {
        let started = Clock.monotonicSeconds()
        let folder: OutputFolder
        do {
            folder = try OutputFolder(out: options.out, label: options.window.label)
        } catch {
            return .failed(Diagnostic.of(error))
        }
        let rejects = RejectLog()
        do {
            try rejects.streamTo(folder.staging + "/rejects.csv")
            switch try body(folder, rejects, started) {
            case .succeeded(var written):
                try folder.commit()
                written.totalSeconds = Clock.monotonicSeconds() - started
                return .succeeded(written)
            case .refused(let refused):
                try folder.keepRejectsOnly()
                return .refused(refused)
            case .failed(let diagnostic):
                folder.abandon()
                return .failed(diagnostic)
            }
        } catch {
            try? rejects.commit()
            let kept = rejects.count > 0 && (try? folder.keepRejectsOnly()) != nil
            folder.abandon()
            return .failed(
                ReportRunError(underlying: error, destination: folder.destination, rejectsFile: kept ? folder.rejectsFile : nil)
                    .diagnostic)
        }
    }

    /// The stages of a report, in order (`Pipeline`): the App Store data and the ledger (with
    /// the small inputs), the cost rows read and attributed on every core, then the assembly:
    /// credits settled, figures, reconciliation, files. (A distributed run makes the same
    /// stages across machines, `Distributed/`.)
    private static func run(
        _ options: RunOptions, folder: OutputFolder, rejects: RejectLog, started: Double,
        progress: @escaping @Sendable (ReportProgress) -> Void
    ) throws -> ReportOutcome {
        let pipeline = Pipeline(options, rejects: rejects)
        // 1. Inputs of the App Store side, and the ledger built from them.
        let loaded = try pipeline.load(progress: progress)
        let appStoreInputs = try loaded.appStoreInputRecords(root: options.data)
        let appStoreSeconds = Clock.monotonicSeconds() - started
        FreedMemory.giveBack()

        // 2. The cost rows, each given its class (a bill spread over its usage on the way).
        let costStarted = Clock.monotonicSeconds()
        let attributor = pipeline.attributor(loaded)
        let reading = try pipeline.attribute(loaded, with: attributor, countsRequestsFirst: true, progress: progress)
        FreedMemory.giveBack()
        let timings = ReportAssembly.Timings(
            started: started, appStore: appStoreSeconds, costRows: Clock.monotonicSeconds() - costStarted)

        // 3. Settled, figures, reconciliation and every file.
        let outcome = try ReportAssembly.run(
            loaded, attributor: consume attributor, appStoreInputs: appStoreInputs, costs: consume reading, options: options,
            folder: folder, rejects: rejects, warnings: pipeline.warnings, timings: timings)
        // The reading is the assembly's, which settles its totals in place (a reference kept
        // here would make that a copy).
        if options.endsProcess { ProcessLifetime.keepUntilExit(loaded) }
        return outcome
    }
}
