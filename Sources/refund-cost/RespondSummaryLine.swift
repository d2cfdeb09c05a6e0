import Pipeline
import Support

/// The one line a respond run prints to say what it did (with `--summary`, and without
/// `--quiet`): when it ran, what it did to the requests, what it read, and its exit status
/// with the reasons for a 1, so a log of these lines proves cron ran and says what needs a
/// person.
struct RespondSummaryLine {
    /// `--as-of`, when the run was given one.
    var asOf: Timestamp?
    /// The time the data was read up to.
    var readUpTo: Timestamp
    var dryRun: Bool
    var store = RespondStore.apple

    /// The real time the line is written, then the command, then its `--as-of`.
    private var lead: String {
        "\(Clock.now()) refund-cost respond" + (asOf.map { " as of \($0)" } ?? "") + ": "
    }

    /// The line of a run that ran to its end (or stopped at a 401).
    func of(_ outcome: RespondOutcome, status: Int32) -> String {
        var text = lead
        if outcome.upToDate {
            text += "nothing new since the last run, and nothing left to answer; \(outcome.alreadyAnswered) answered before"
        } else {
            text +=
                "\(outcome.open) open \(store.requests): \(outcome.sent) sent, \(outcome.refused) refused, \(outcome.failed) failed, "
                + "\(outcome.skipped) skipped, \(outcome.alreadyAnswered) answered before; \(outcome.missed) missed"
            if outcome.signedLater > 0 {
                text += "; \(outcome.signedLater) \(store.made) after \(readUpTo), read by a later run"
            }
            text +=
                outcome.readEveryFile || outcome.notes.contains { $0.contains("was built from every file") }
                ? "; read every file" : outcome.nothingNew ? "; nothing new read" : "; read what arrived since the last run"
            if dryRun { text += " (dry run: nothing sent, nothing journaled)" }
        }
        var reasons: [String] = []
        let since = [
            outcome.refusedSinceSummary > 0 ? "\(outcome.refusedSinceSummary) refused" : nil,
            outcome.missedSinceSummary > 0 ? "\(outcome.missedSinceSummary) missed" : nil,
        ].compactMap { $0 }
        if !since.isEmpty { reasons.append(since.joined(separator: " and ") + " since the last summary") }
        let failed = max(outcome.failed, outcome.failedNotSent)
        if failed > 0 { reasons.append("\(failed) failed, not yet sent") }
        reasons += outcome.attention
        if outcome.unauthorized != nil {
            reasons.append(store == .apple ? "Apple refused the key (401)" : "Google refused the service account (401)")
        }
        return text + "; exit \(status)" + (status != 0 && !reasons.isEmpty ? ": " + reasons.joined(separator: ", ") : "")
    }

    /// The line of a run that found another holding the journal.
    func busy(_ busy: RespondBusyError, stuck: Bool) -> String {
        lead + String(busy.busyLine.dropFirst("refund-cost respond: ".count))
            + (stuck ? "; exit 1: it looks stuck" : "; exit 0")
    }

    /// The line of a run an error stopped (the error itself goes to stderr).
    func stopped(by error: any Error) -> String {
        let message = Diagnostic.of(error).message.split(separator: "\n").first.map(String.init) ?? ""
        return lead + "stopped: " + message + "; exit \(error is UsageError ? 2 : 1)"
    }
}
