import Ingest
import Support

extension RespondRun {
    /// Ends a run's part of the journal: reports what an earlier run journaled but stopped
    /// before reporting, works out the exit status, and journals the run's summary line when
    /// the journal holds anything since the last one.
    ///
    /// How a refusal or a miss is known across runs: the journal is the durable record, and a
    /// summary line marks what the runs before it reported. Refusals and misses after the last
    /// summary line (this run's, and those of a run killed before its summary) make this run
    /// exit 1; once its summary line is on disk, the next run exits 0 for them. A request
    /// failed and not yet sent makes every run exit 1 until one sends it. A run with nothing
    /// to journal writes no summary line, so the journal does not grow every five minutes.
    static func close(_ journal: inout ConsumptionJournal, _ outcome: inout RespondOutcome, _ options: RespondOptions) throws {
        outcome.refusedSinceSummary = journal.unreported.filter { $0.state == .refused }.count
        outcome.missedSinceSummary = journal.unreported.filter { $0.state == .missed }.count
        guard journal.eventsSinceSummary > 0 else { return }
        var summary = JournalSummary(at: options.clock(), asOf: options.journalAsOf)
        (summary.sent, summary.refused, summary.failed) = (outcome.sent, outcome.refused, outcome.failed)
        (summary.skipped, summary.missed) = (outcome.skipped, outcome.missed)
        summary.status = outcome.status
        try journal.summarize(summary)
    }
}
