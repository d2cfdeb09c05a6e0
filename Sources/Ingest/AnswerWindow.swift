import Support

/// How long a store waits for the answer to a refund request, counted from the request's time:
/// Apple's 12 hours from its signing of a `CONSUMPTION_REQUEST`, Google's 24 hours from a
/// pending refund review's notification.
package struct AnswerWindow: Sendable, Hashable {
    package var span: TimeSpan
    /// The window in words, as every line and reason says it (`12 hours`).
    package var name: String
    /// The store, as a journal's first line names it: nil for Apple's (as every journal
    /// before 0.16.0 left it), `play` for Google Play's.
    package var journalStore: String?

    package static let apple = AnswerWindow(span: ConsumptionDeadline.window, name: "12 hours")
    package static let play = AnswerWindow(span: .hours(24), name: "24 hours", journalStore: "play")

    /// When the answer to a request made at `time` is due.
    package func deadline(of time: Timestamp) -> Timestamp { time.adding(span) }
}
