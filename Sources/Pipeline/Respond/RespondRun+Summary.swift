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
        try missFailuresGoneFromTheData(&journal, &outcome, options)
        outcome.failedNotSent = journal.latest.values.filter { $0.state == .failed }.count
        outcome.refusedSinceSummary = journal.unreported.filter { $0.state == .refused }.count
        outcome.missedSinceSummary = journal.unreported.filter { $0.state == .missed }.count
        guard journal.eventsSinceSummary > 0 else { return }
        var summary = JournalSummary(at: options.clock(), asOf: options.journalAsOf)
        (summary.sent, summary.refused, summary.failed) = (outcome.sent, outcome.refused, outcome.failed)
        (summary.skipped, summary.missed) = (outcome.skipped, outcome.missed)
        summary.status = outcome.status
        try journal.summarize(summary)
    }

    /// A request the journal holds as failed that this run did not try (its notification is
    /// no longer in the data, or the clock went back) keeps the run's status at 1 while it can
    /// still be answered; once its store's window (Apple's 12 hours, Google's 24) has passed
    /// since it failed, its own window has certainly ended (it failed inside it), and it is
    /// journaled missed, never left failed.
    private static func missFailuresGoneFromTheData(
        _ journal: inout ConsumptionJournal, _ outcome: inout RespondOutcome, _ options: RespondOptions
    ) throws {
        let gone = journal.latest.values.filter { event in
            event.state == .failed && options.window.deadline(of: event.asOf ?? event.at) < options.now
        }
        var missed: [JournalEvent] = []
        for failed in gone.sorted(by: { ($0.at, $0.notificationUUID) < ($1.at, $1.notificationUUID) }) {
            let ended = options.window.deadline(of: failed.asOf ?? failed.at)
            let event = JournalEvent(
                notificationUUID: failed.notificationUUID, transactionID: failed.transactionID, state: .missed,
                at: options.clock(), attempt: failed.attempt,
                reason:
                    "the \(options.window.name) ended by \(ended) with no answer sent (the request was not found in the data since)"
            )
            missed.append(event)
            outcome.missed += 1
            options.events(.journaled(event, deadline: ended))
        }
        if !missed.isEmpty { try journal.append(contentsOf: missed) }
    }
}
