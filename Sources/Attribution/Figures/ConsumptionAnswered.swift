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

    package init(
        state: JournalEvent.State, lastAt: Timestamp, appleErrorCode: Int?, sentAt: Timestamp?, sentPreference: RefundPreference?
    ) {
        self.state = state
        self.lastAt = lastAt
        self.appleErrorCode = appleErrorCode
        self.sentAt = sentAt
        self.sentPreference = sentPreference
    }
}

/// What the journal of `respond` says about one request: its last state, when it was
/// answered, and whether that was inside Apple's 12 hours from the request's signing.
package struct ConsumptionAnswered: Sendable, Hashable {
    /// The last event's state (`sent`, `refused`, `failed`, `skipped`, `missed`, `sending`), or `none`.
    package var state: String
    /// When the answer went out (`sent`), or when it was refused; nil otherwise.
    package var answeredAt: Timestamp?
    package var inTime: Bool
    package var appleErrorCode: Int?
    /// The `refundPreference` of the answer Apple took (nil when none was sent).
    package var sentPreference: RefundPreference?

    /// The word of `entry` (nil: the journal never named the request) on a request due at `respondBy`.
    init(_ entry: JournalEntry?, respondBy: Timestamp) {
        guard let entry else {
            self.init(state: "none", answeredAt: nil, inTime: false, appleErrorCode: nil, sentPreference: nil)
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
