import Ingest
import Support

/// What the journal's torn last line means, from what is left of it and the line before it.
///
/// The tool journals a request's `sending` line, flushed, before the request goes out, and its
/// answer line right after Apple answers. So a torn line that follows the `sending` line of
/// the request it names, with its state read whole, is Apple's answer to a request that went
/// out: a `sent` line is Apple's 202, taken already, and must never send the request again.
/// Any other torn line named a request that was not sent (a `sending` line not on disk
/// stopped the run before the request went; `missed` and `skipped` lines are journaled again).
/// A line cut before its state, after a request went out, leaves Apple's answer unknown: the
/// request goes again with the same body, which Apple takes as the one answer it has.
struct TornLineRecovery {
    /// The answer line as far as it was read, with the body of its `sending` line; nil when
    /// the torn line is left out.
    var answer: JournalEvent?
    /// What the warning says after the line's place.
    var warning: String
    /// The torn line was a run's summary: what it summed up was reported when it was written
    /// (a summary follows the run's lines), so it counts as one.
    var isSummary = false

    private static let cut =
        "the journal's last line was cut short (a write that failed part-way, such as on a full disk); "

    init(_ torn: TornJournalLine, after previous: JournalEvent?) {
        if torn.state == "summary", torn.notificationUUID == nil {
            isSummary = true
            warning = Self.cut + "it was a run's summary, written after the run reported what it summed up: it counts as one"
            return
        }
        guard let sending = previous, sending.state == .sending,
            torn.notificationUUID.map({ $0 == sending.notificationUUID }) ?? true
        else {
            warning =
                Self.cut + "the request it named was not sent by it, so it is left out; the request is answered as the "
                + "rest of the journal says (sent again only if no answer of it is journaled)"
            return
        }
        let request = "request \(sending.notificationUUID)"
        guard torn.notificationUUID != nil, let text = torn.state, let state = JournalEvent.State(rawValue: text),
            [.sent, .refused, .failed].contains(state)
        else {
            warning =
                Self.cut + "\(request) had gone out (its sending line is whole) and Apple's answer is not known: the same "
                + "body goes again (PUT is idempotent: Apple keeps one answer)"
            return
        }
        answer = JournalEvent(
            notificationUUID: sending.notificationUUID, transactionID: torn.transactionID ?? sending.transactionID, state: state,
            at: torn.at ?? sending.at, asOf: torn.asOf ?? sending.asOf, httpStatus: torn.httpStatus,
            appleErrorCode: torn.appleErrorCode, body: sending.body, attempt: torn.attempt ?? sending.attempt,
            reason: torn.reason)
        let what =
            switch state {
            case .sent: "it was the sent line of \(request): Apple had taken the answer, so it is not sent again"
            case .refused: "it was the refused line of \(request): Apple had refused the answer, so it is not sent again"
            default: "it was the failed line of \(request): no answer came, so the same body goes again"
            }
        warning = Self.cut + what + "; the line is written again whole, as far as it was read"
    }
}
