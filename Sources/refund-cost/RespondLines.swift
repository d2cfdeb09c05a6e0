import Ingest
import Pipeline
import Support

/// The line a respond run writes for each thing it does (`RespondEvent`), and where: what needs
/// a person (a miss, a refusal, a failure, one reported late) on stderr whatever `--quiet`
/// says; the rest (answers sent, requests skipped, a dry run's requests) on stdout.
struct RespondLines {
    /// What a token would claim, for a dry run's lines (never the token).
    var tokenDescription: String
    /// A dry run journals nothing: its lines say what a run would journal.
    var dryRun = false
    /// Whose requests: Apple's 12 hours and transactions, or Google's 24 hours and orders.
    var store = RespondStore.apple

    enum Stream {
        case output
        case attention
    }

    func line(_ event: RespondEvent) -> (Stream, String) {
        switch event {
        case .began(let first):
            return (
                .output,
                "missed   \(first.missed) requests whose \(store.window.name) ended before this journal began (\(first.begins)), "
                    + "\(store.made) \(first.oldest.map(\.description) ?? "") to \(first.newest.map(\.description) ?? ""): "
                    + (dryRun ? "one line in the journal of a run that is not dry" : "one line in the journal")
            )
        case .unreported(let event):
            let deadline = event.state == .missed ? self.deadline(of: event) : nil
            let line = requestLine(event, deadline: deadline).1
            return (.attention, line + " (journaled at \(event.at) by a run that stopped before its summary)")
        case .journaled(let event, let deadline):
            return requestLine(event, deadline: deadline.description)
        case .wouldSend(let request, let uuid, let deadline, let body):
            return (
                .output,
                "would send \(request)  (\(uuid), answer by \(deadline))\n"
                    + "  Content-Type: application/json; Authorization: Bearer <a fresh token>; \(tokenDescription)\n"
                    + "  body \(body)"
            )
        }
    }

    /// The line of one request's event, the same whether this run journaled it or an earlier
    /// one that stopped before its summary did: `state    UUID  transaction ID: what happened`.
    private func requestLine(_ event: JournalEvent, deadline: String?) -> (Stream, String) {
        switch event.state {
        case .missed:
            let window = store.window.name
            let ended = deadline.map { "its \(window) ended \($0)" } ?? event.reason ?? "its \(window) ended"
            return (.attention, lead(event, width: 7) + ": " + ended)
        case .skipped:
            return (.output, lead(event, width: 7) + ": " + (event.reason ?? ""))
        default:
            var line = lead(event)
            if let status = event.httpStatus { line += ": HTTP \(status)" }
            if let code = event.appleErrorCode { line += ", \(store.owner) error \(code)" }
            if var reason = event.reason, event.state != .sent {
                // A reason that begins with the status says it once.
                if let status = event.httpStatus, reason.hasPrefix("HTTP \(status) ") {
                    reason.removeFirst("HTTP \(status) ".count)
                }
                line += event.httpStatus == nil ? ": \(reason)" : " (\(reason))"
            }
            return (event.state == .sent ? .output : .attention, line)
        }
    }

    /// When a missed request's 12 hours ended, as respond journals it (`the 12 hours ended TIME
    /// with no answer sent`); nil for a reason written otherwise.
    private func deadline(of event: JournalEvent) -> String? {
        let prefix = "the \(store.window.name) ended ", suffix = " with no answer sent"
        guard let reason = event.reason, reason.hasPrefix(prefix), reason.hasSuffix(suffix) else { return nil }
        return String(reason.dropFirst(prefix.count).dropLast(suffix.count))
    }

    /// `state    UUID  transaction ID`: the columns every request's line begins with (a missed
    /// or skipped line's state in 7 columns, an answer's in 8, as the lines always were).
    private func lead(_ event: JournalEvent, width: Int = 8) -> String {
        let state = event.state.rawValue
        return state + String(repeating: " ", count: max(0, width - state.count))
            + "  \(Reject.printable(event.notificationUUID))  \(store.item) \(Reject.printable(event.transactionID))"
    }
}
