import Ingest
import Support

/// What the journal of `respond` says about one request, as a report reads it (the journal
/// itself is respond's): its last event, and the first answer Apple took.
package struct JournalEntry: Sendable, Hashable {
    /// The last event's state (`sent`, `refused`, `failed`, `skipped`, `missed`, `sending`).
    package var state: JournalEvent.State
    /// When the last event happened: its `as_of` when the run was given `--as-of` (a trial over
    /// past data), else its real time.
    package var lastAt: Timestamp
    package var appleErrorCode: Int?
    /// When the first answer Apple took went out (its `as_of` when there is one, else its real
    /// time: a live answer held up by retries is judged by when it really went), and the
    /// `refundPreference` it sent.
    package var sentAt: Timestamp?
    package var sentPreference: RefundPreference?
    /// The `refundPreference` sent as it was written: Google's (`APPROVE`, `NEUTRAL`) are not Apple's.
    package var sentPreferenceName: String?

    package init(
        state: JournalEvent.State, lastAt: Timestamp, appleErrorCode: Int?, sentAt: Timestamp?, sentPreference: RefundPreference?,
        sentPreferenceName: String? = nil
    ) {
        self.state = state
        self.lastAt = lastAt
        self.appleErrorCode = appleErrorCode
        self.sentAt = sentAt
        self.sentPreference = sentPreference
        self.sentPreferenceName = sentPreferenceName ?? sentPreference?.rawValue
    }
}

/// What the journal of `respond` says about one request: its last state, when it was
/// answered, and whether that was inside Apple's 12 hours from the request's signing.
package struct ConsumptionAnswered: Sendable, Hashable {
    /// The last event's state (`sent`, `refused`, `failed`, `skipped`, `missed`, `sending`), or
    /// `none`; `missed` too for a request the journal never named whose 12 hours ended before
    /// it began (its first line counts them).
    package var state: String
    /// When the answer went out (`sent`), or when it was refused; nil otherwise.
    package var answeredAt: Timestamp?
    package var inTime: Bool
    package var appleErrorCode: Int?
    /// The `refundPreference` of the answer Apple took (nil when none was sent).
    package var sentPreference: RefundPreference?
    /// The request's 12 hours ended before the journal began: missed, but not on respond's
    /// watch, so kept apart from the requests not answered in time.
    package var beforeJournal = false

    /// The word of `entry` (nil: the journal never named the request) on a request due at
    /// `respondBy`, in a journal that began at `journalBegins` (nil for one begun before 0.14.0,
    /// which has no first line).
    init(_ entry: JournalEntry?, respondBy: Timestamp, journalBegins: Timestamp?) {
        guard let entry else {
            let before = journalBegins.map { respondBy <= $0 } ?? false
            self.init(
                state: before ? "missed" : "none", answeredAt: nil, inTime: false, appleErrorCode: nil, sentPreference: nil)
            beforeJournal = before
            return
        }
        self.init(
            state: entry.state.rawValue, answeredAt: entry.sentAt ?? (entry.state == .refused ? entry.lastAt : nil),
            inTime: entry.sentAt.map { $0 <= respondBy } ?? false, appleErrorCode: entry.appleErrorCode,
            sentPreference: entry.sentPreference)
    }

    package init(state: String, answeredAt: Timestamp?, inTime: Bool, appleErrorCode: Int?, sentPreference: RefundPreference?) {
        self.state = state
        self.answeredAt = answeredAt
        self.inTime = inTime
        self.appleErrorCode = appleErrorCode
        self.sentPreference = sentPreference
    }
}

/// How Apple decided a request, beside the answer respond sent it.
package enum DecisionAfterAnswer: Sendable, Hashable {
    /// No answer was sent (or no journal was read).
    case noAnswer
    /// Answered; Apple has not decided since.
    case pending
    /// Answered, but Apple had decided before the answer went: the answer decided nothing.
    case decidedBefore
    case granted
    case declined
}

extension ConsumptionFigure {
    /// Apple's decision counted only when it was signed after the answer went out.
    package var decisionAfterAnswer: DecisionAfterAnswer {
        guard let answered, answered.sentPreference != nil, let answeredAt = answered.answeredAt else { return .noAnswer }
        guard outcome != .pending, let decided = outcomeAt else { return .pending }
        guard decided > answeredAt else { return .decidedBefore }
        return outcome == .granted ? .granted : .declined
    }

    /// True when a person must look at the request (with a journal).
    ///
    /// A request refused, failed or still being sent, missed on respond's watch, answered late,
    /// or never named although its 12 hours passed. Skipped requests and those whose 12 hours
    /// ended before the journal began are not.
    package var needsAttention: Bool {
        guard let answered else { return false }
        switch answered.state {
        case "refused", "failed", "sending": return true
        case "missed": return !answered.beforeJournal
        case "sent": return !answered.inTime
        case "none": return pastRespondBy
        default: return false
        }
    }
}
