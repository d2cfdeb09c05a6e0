import Attribution
import Ingest
import Support

/// What each refund request needs this run, decided from the requests, the journal and the
/// time alone: a value in, a value out, so every rule of it is tested without a file or a
/// socket (`RespondRun` does what it says).
package struct RespondTriage: Sendable, Equatable {
    /// A request as the run knows it.
    package struct Request: Sendable, Hashable {
        package var uuid: String
        package var transactionID: String?
        package var signedAt: Timestamp

        package init(uuid: String, transactionID: String?, signedAt: Timestamp) {
            self.uuid = uuid
            self.transactionID = transactionID
            self.signedAt = signedAt
        }
    }

    /// What the journal says of a request: its last event's state, and the body sent when one was.
    package struct Journaled: Sendable, Hashable {
        package var state: JournalEvent.State
        package var body: String?

        package init(state: JournalEvent.State, body: String?) {
            self.state = state
            self.body = body
        }
    }

    /// Requests the state keeps for a later run (not answered for good).
    package var kept: Set<String> = []
    /// Requests to answer, miss or send again now, in the order they were signed.
    package var open: [Request] = []
    /// Requests whose figure is needed: inside their window (for their answer, or, for one
    /// sent before, whether Apple decided since).
    package var figuresNeeded: [Request] = []
    /// Of those, the ones with no recorded body: their answer is worked out anew.
    package var answersNeeded: Set<String> = []
    /// Requests signed after the time read up to: not open yet, a later run answers them.
    package var signedLater = 0

    /// The triage of `requests` as of `now` (data read up to `asOf`), the journal having
    /// `journaled` and beginning at `start`, each request answered within `window`.
    package static func of(
        _ requests: [Request], journaled: [String: Journaled], start: JournalStart?, now: Timestamp, asOf: Timestamp,
        window: AnswerWindow = .apple
    ) -> RespondTriage {
        var triage = RespondTriage()
        for request in requests {
            let latest = journaled[request.uuid]
            let deadline = window.deadline(of: request.signedAt)
            if request.signedAt > asOf {
                triage.signedLater += 1
                triage.kept.insert(request.uuid)
                continue
            }
            if latest?.state.isFinal == true { continue }
            // Counted in the journal's first line.
            if latest == nil, let start, deadline <= start.begins { continue }
            triage.kept.insert(request.uuid)
            triage.open.append(request)
            if now < deadline {
                triage.figuresNeeded.append(request)
                if latest?.body == nil { triage.answersNeeded.insert(request.uuid) }
            }
        }
        return triage
    }

    /// The first line of a new journal, beginning at `begins`: the requests whose window had
    /// ended by then with no answer (none of them a miss of this journal).
    package static func start(
        of requests: [Request], begins: Timestamp, asOf: Timestamp, at: Timestamp, window: AnswerWindow = .apple
    ) -> JournalStart {
        var first = JournalStart(begins: begins, at: at)
        (first.store, first.window) = (window.journalStore, window.name)
        for request in requests where request.signedAt <= asOf && window.deadline(of: request.signedAt) <= begins {
            first.count(signed: request.signedAt)
        }
        return first
    }
}

/// What one open request gets now.
package enum RespondDecision: Sendable, Equatable {
    /// Its window ended with no answer: journaled `missed`, once.
    case missed(deadline: Timestamp)
    /// Not sent, on purpose (no consent, Apple's rules, Apple decided already): journaled `skipped`.
    case skipped(reason: String)
    /// Not sent, for now, for want of what an answer needs (the order not confirmed with the
    /// store, its account unknown): journaled `failed` with no body, so every run exits 1 for
    /// it and a later one works its answer out anew.
    case failed(reason: String)
    /// Sent with this body: a recorded one again, or the answer worked out now.
    case send(body: String)
    /// No answer of this run's (its data is another environment's): left alone.
    case none

    /// The decision for `request` as of `now`, from the body the journal recorded for it, its
    /// figure and its transaction's type.
    package static func of(
        _ request: RespondTriage.Request, now: Timestamp, recordedBody: String?, figure: ConsumptionFigure?,
        type: ProductType?
    ) -> RespondDecision {
        let deadline = AnswerWindow.apple.deadline(of: request.signedAt)
        guard now < deadline else { return .missed(deadline: deadline) }
        // Apple decided already: an answer, a first one or one sent again, is of no use.
        let decided = figure.flatMap(ConsumptionRules.decided)
        if let recordedBody, decided == nil {
            // Sent before (`sending` cut short, or `failed` with no sure answer): Apple may hold
            // it already, so the same bytes go again, never a recomputed answer.
            return .send(body: recordedBody)
        }
        guard let figure else { return .none }
        if let reason = decided ?? ConsumptionRules.refusal(figure, type: type) { return .skipped(reason: reason) }
        return .send(body: figure.requestBody.compact)
    }
}
