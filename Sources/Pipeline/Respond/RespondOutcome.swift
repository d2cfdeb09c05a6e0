import Ingest
import Support

/// How a respond run ended: what it did to each request.
package struct RespondOutcome {
    package var sent = 0
    package var refused = 0
    package var failed = 0
    package var skipped = 0
    package var missed = 0
    /// The line this run began the journal with, when it did.
    package var began: JournalStart?
    /// Requests the journal had answered for good (sent, refused or skipped) when the run
    /// began: the same on every run that finds nothing new.
    package var alreadyAnswered = 0
    package var open = 0
    /// Notifications signed after the data's as-of time: not read by this run (a request among
    /// them is not open yet), so the next run reads again.
    package var signedLater = 0
    /// 401: the run stopped, with what to check.
    package var unauthorized: String?
    package var warnings: [Diagnostic] = []
    /// How the run came by its state: built from every file, or files read again alone (a line
    /// each, for stderr).
    package var notes: [String] = []
    /// Nothing arrived since the last run.
    package var nothingNew = false
    /// What else needs a person (reviews of another app in the data): each makes the run exit 1.
    package var attention: [String] = []
    /// The run read every file (Google Play's answers, which keep no state, always do).
    package var readEveryFile = false
    /// Nothing arrived since the last run, and nothing was left to answer.
    package var upToDate = false
    /// Refusals and misses an earlier run journaled but stopped before reporting (its summary
    /// line never followed them): this run reports them.
    package var unreported: [JournalEvent] = []
    /// Refusals and misses since the last run's summary, this run's included.
    package var refusedSinceSummary = 0
    package var missedSinceSummary = 0
    /// Requests whose latest event in the journal is a failure, this run's included: each makes
    /// every run exit 1 until one sends it (or journals it missed).
    package var failedNotSent = 0

    /// 1 while anything needs a person, 0 otherwise.
    ///
    /// A refusal or a miss since the last run's summary, a request failed and not yet sent, a
    /// key Apple refused: a monitor on the exit status alerts for as long as a problem lasts,
    /// and once for each refusal and miss.
    package var status: Int32 {
        refusedSinceSummary + missedSinceSummary + max(failed, failedNotSent) > 0 || unauthorized != nil || !attention.isEmpty
            ? 1 : 0
    }
}
