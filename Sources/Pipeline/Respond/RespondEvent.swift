import Ingest
import Support

/// What a run tells whoever runs it, as it happens: the command turns each into a line (what
/// needs a person on stderr, the rest on stdout), a test looks at them as they are.
package enum RespondEvent: Sendable, Equatable {
    /// A new journal began, counting the requests whose 12 hours had ended before it.
    case began(JournalStart)
    /// A refusal or a miss an earlier run journaled and stopped before reporting.
    case unreported(JournalEvent)
    /// A request's event as it was journaled: missed (its deadline beside it), skipped, or
    /// Apple's answer (sent, refused, failed).
    case journaled(JournalEvent, deadline: Timestamp)
    /// A dry run: what would be sent (the method and URL), and until when.
    case wouldSend(request: String, uuid: String, deadline: Timestamp, body: String)
}
