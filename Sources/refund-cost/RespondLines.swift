import Ingest
import Pipeline
import Support

/// The line a respond run writes for each thing it does (`RespondEvent`), and where: what needs
/// a person (a miss, a refusal, a failure, one reported late) on stderr whatever `--quiet`
/// says; the rest (answers sent, requests skipped, a dry run's requests) on stdout.
struct RespondLines {
    /// What a token would claim, for a dry run's lines (never the token).
    var tokenDescription: String

    enum Stream {
        case output
        case attention
    }

    func line(_ event: RespondEvent) -> (Stream, String) {
        switch event {
        case .began(let first):
            return (
                .output,
                "missed   \(first.missed) requests whose 12 hours ended before this journal began (\(first.begins)), "
                    + "signed \(first.oldest.map(\.description) ?? "") to \(first.newest.map(\.description) ?? ""): "
                    + "one line in the journal"
            )
        case .unreported(let event):
            var line = Self.lead(event)
            if let status = event.httpStatus { line += ": HTTP \(status)" }
            if let code = event.appleErrorCode { line += ", Apple error \(code)" }
            if let reason = event.reason { line += (event.httpStatus == nil ? ": " : " ") + "(\(reason))" }
            return (.attention, line + " (journaled at \(event.at) by a run that stopped before its summary)")
        case .journaled(let event, let deadline):
            switch event.state {
            case .missed: return (.attention, Self.lead(event, width: 7) + ": its 12 hours ended \(deadline)")
            case .skipped: return (.output, Self.lead(event, width: 7) + ": " + (event.reason ?? ""))
            default:
                var line = Self.lead(event)
                if let status = event.httpStatus { line += ": HTTP \(status)" }
                if let code = event.appleErrorCode { line += ", Apple error \(code)" }
                if let reason = event.reason, event.state != .sent { line += " (\(reason))" }
                return (event.state == .sent ? .output : .attention, line)
            }
        case .wouldSend(let url, let uuid, let deadline, let body):
            return (
                .output,
                "would send PUT \(url)  (\(uuid), answer by \(deadline))\n"
                    + "  Content-Type: application/json; Authorization: Bearer <a fresh token>; \(tokenDescription)\n"
                    + "  body \(body)"
            )
        }
    }

    /// `state    UUID  transaction ID`: the columns every request's line begins with (a missed
    /// or skipped line's state in 7 columns, an answer's in 8, as the lines always were).
    private static func lead(_ event: JournalEvent, width: Int = 8) -> String {
        let state = event.state.rawValue
        return state + String(repeating: " ", count: max(0, width - state.count))
            + "  \(event.notificationUUID)  transaction \(event.transactionID)"
    }
}
