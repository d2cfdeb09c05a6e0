import AppStoreAPI
import Ingest
import Support

/// How one store's answers go out: what each open request gets, and the call that sends a body.
package struct Answering {
    /// The call a body goes out with, for a dry run's line (`PUT URL`).
    var request: (RespondTriage.Request) -> String
    /// What the request gets now, given the body the journal recorded for it.
    var decide: (RespondTriage.Request, _ recordedBody: String?) -> RespondDecision
    /// Sends `body`, retrying as the store allows until the deadline; what the store answered.
    var send: (_ request: RespondTriage.Request, _ body: [UInt8], _ deadline: Timestamp) throws -> APIOutcome
    /// What to check when the store refused the credentials (401), naming the item left to send.
    var unauthorized: (_ item: String) -> String
}

extension RespondRun {
    /// Each open request's decision, done, the same for both stores: only `answering` differs.
    ///
    /// Missed and skipped are journaled together (one flush, before the next send and at the
    /// end), each send journaled `sending`, sent, its answer journaled.
    static func send(
        _ requests: [RespondTriage.Request], answering: Answering, options: RespondOptions,
        journal: inout ConsumptionJournal, outcome: inout RespondOutcome
    ) throws {
        var settled: [JournalEvent] = []
        defer { if !options.dryRun { try? journal.append(contentsOf: settled) } }
        for request in requests {
            let (uuid, transaction) = (request.uuid, request.transactionID ?? "")
            let deadline = options.window.deadline(of: request.signedAt)
            let attempt = (journal.attempts[uuid] ?? 0) + 1
            var decision = answering.decide(request, journal.latest[uuid]?.body)
            // On the clock, the run's own time counts: a request whose window ends while the run
            // works (retries, slow answers) is missed, never sent late.
            let current = options.journalAsOf == nil ? max(options.now, options.clock()) : options.now
            switch decision {
            case .send, .failed: if current >= deadline { decision = .missed(deadline: deadline) }
            default: break
            }
            if case .missed = decision {} else { outcome.open += 1 }
            let body: String
            func settle(_ state: JournalEvent.State, _ reason: String) {
                let event = JournalEvent(
                    notificationUUID: uuid, transactionID: transaction, state: state, at: options.clock(), attempt: attempt,
                    reason: reason)
                settled.append(event)
                options.events(.journaled(event, deadline: deadline))
            }
            switch decision {
            case .none:
                continue
            case .missed:
                outcome.missed += 1
                settle(.missed, "the \(options.window.name) ended \(deadline) with no answer sent")
                continue
            case .skipped(let reason):
                outcome.skipped += 1
                settle(.skipped, reason)
                continue
            case .failed(let reason):
                outcome.failed += 1
                settle(.failed, reason)
                continue
            case .send(let chosen):
                body = chosen
            }
            guard !options.dryRun else {
                options.events(.wouldSend(request: answering.request(request), uuid: uuid, deadline: deadline, body: body))
                continue
            }
            // What was settled so far goes to disk first, in one write, then this request's `sending`.
            try journal.append(contentsOf: settled)
            settled = []
            try journal.append(
                JournalEvent(
                    notificationUUID: uuid, transactionID: transaction, state: .sending, at: options.clock(), body: body,
                    attempt: attempt))
            // Tokens and retries run on the real clock, up to the deadline; with --as-of (a trial over
            // past data) the time left is the request's as of then, counted from now.
            let sendBy =
                options.journalAsOf == nil
                ? deadline : options.clock().adding(TimeSpan(milliseconds: deadline.milliseconds - options.now.milliseconds))
            let answer = try answering.send(request, Array(body.utf8), sendBy)
            var event = JournalEvent(
                notificationUUID: uuid, transactionID: transaction, state: .failed, at: options.clock(), body: body,
                attempt: attempt)
            switch answer {
            case .accepted(let response):
                event.state = .sent
                event.httpStatus = response.status
                outcome.sent += 1
            case .refused(let status, let code, let message):
                event.state = .refused
                event.httpStatus = status
                event.appleErrorCode = code
                event.reason = message
                outcome.refused += 1
            case .unauthorized(let status, let code, let message):
                event.httpStatus = status
                event.appleErrorCode = code
                event.reason = "401 " + (message ?? "unauthorized")
                try journal.append(contentsOf: settled + [event])
                settled = []
                outcome.failed += 1
                outcome.unauthorized = answering.unauthorized(transaction)
                return
            case .failed(let reason, let status, let code):
                event.httpStatus = status
                event.appleErrorCode = code
                event.reason = reason
                outcome.failed += 1
            }
            try journal.append(event)
            options.events(.journaled(event, deadline: deadline))
        }
        if !options.dryRun {
            try journal.append(contentsOf: settled)
            settled = []
        }
    }
}
