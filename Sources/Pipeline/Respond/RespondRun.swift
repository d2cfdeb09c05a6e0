import AppStoreAPI
import Attribution
import Ingest
import Ledger
import Support

/// What `refund-cost respond` was asked to do.
package struct RespondOptions {
    /// The inputs as a report reads them, as of `report.window.asOf` (default: now).
    package var report: RunOptions
    /// The time that decides which requests are open and which are missed.
    ///
    /// The clock's, or `--as-of`. The data is read up to `report.asOf`, which is later by the
    /// clock skew tolerated when the time is the clock's.
    package var now: Timestamp
    package var journal: String
    /// When a new journal begins, with `--start` (now without it).
    ///
    /// Requests whose 12 hours ended between this time and now are missed one by one. A journal
    /// that began keeps its start.
    package var start: Timestamp?
    /// Where answers go; nil with `--dry-run`: nothing is signed or sent.
    package var sender: (any ConsumptionSender)?
    package var baseURL: String
    package var dryRun = false
    /// Where respond keeps what it read between runs (`--state`; default: beside the journal).
    package var state: String?
    /// Every byte of every file the state read is hashed again (`--full-check`, once a day).
    package var fullCheck = false
    /// The run's `--as-of`, journaled beside each event's real time (nil on the clock).
    package var journalAsOf: Timestamp?
    /// The real time, for the journal's events and the time left to send (a test's own clock).
    package var clock: @Sendable () -> Timestamp = { Clock.now() }
    /// Hears what the run does as it does it (the command writes a line for each).
    package var events: (RespondEvent) -> Void = { _ in }

    package init(report: RunOptions, now: Timestamp, journal: String, sender: (any ConsumptionSender)?, baseURL: String) {
        self.report = report
        self.now = now
        self.journal = journal
        self.sender = sender
        self.baseURL = baseURL
    }
}

/// The 12-hour answer to every `CONSUMPTION_REQUEST`: work out the answer the report gives,
/// check it against Apple's rules, journal `sending`, send, journal the answer.
///
/// One answer per request: a request whose last event is final gets nothing more; one whose
/// last event is `sending` (a run killed mid-request) is sent again with the recorded body,
/// never recomputed (PUT is idempotent); one whose 12 hours passed unanswered is journaled
/// `missed` once.
package enum RespondRun {
    /// How far Apple's clock and this machine's may differ: run on the clock, `respond` reads
    /// what Apple signed up to this far ahead of it, so a request signed "in the future" by a
    /// few seconds is answered now, not by a later run.
    package static let clockSkew = TimeSpan.minutes(5)

    package static func execute(_ options: RespondOptions) throws -> RespondOutcome {
        // A journal in a folder not made yet: the folder is made, owner-only.
        let folder = FileSystem.folder(of: options.journal)
        if !options.dryRun, FileSystem.kind(folder) == .missing { try FileSystem.createDirectory(folder, mode: 0o700) }
        // The lock first: two runs must never both decide what to send.
        let lock = options.dryRun ? nil : try RunLock.journal(options.journal)
        defer { withExtendedLifetime(lock) {} }
        var journal = try ConsumptionJournal(path: options.journal)
        journal.asOf = options.journalAsOf
        if !options.dryRun { try journal.prepareForWriting() }
        var outcome = RespondOutcome()
        let diagnostics = DiagnosticCollector()
        diagnostics.warn(journal.recovered)
        outcome.alreadyAnswered = journal.answered
        if !options.dryRun {
            outcome.unreported = journal.unreported
            for event in journal.unreported { options.events(.unreported(event)) }
        }
        try answer(options, journal: &journal, outcome: &outcome, diagnostics: diagnostics)
        if !options.dryRun { try close(&journal, &outcome, options) }
        outcome.warnings = diagnostics.diagnostics
        return outcome
    }

    /// What the run does between reading the journal and ending its part of it: the requests,
    /// their triage, the answers worked out, the state kept, then each request's decision done.
    private static func answer(
        _ options: RespondOptions, journal: inout ConsumptionJournal, outcome: inout RespondOutcome,
        diagnostics: DiagnosticCollector
    ) throws {
        let stateFolder = options.dryRun ? nil : options.state ?? options.journal + ".state"
        let found = try RespondRequests(
            options: options.report, stateFolder: stateFolder, journal: options.journal, fullCheck: options.fullCheck,
            diagnostics: diagnostics)
        outcome.notes = found.notes
        outcome.nothingNew = found.nothingNew
        let (now, asOf) = (options.now, options.report.asOf)
        // A new journal begins now (or at --start): requests whose 12 hours ended before are
        // counted in its first line, not missed one by one.
        if journal.isEmpty {
            let first = RespondTriage.start(
                of: found.requests, begins: min(options.start ?? now, now), asOf: asOf, at: options.clock())
            if !options.dryRun { try journal.begin(first) }
            outcome.began = first
            if first.missed > 0 { options.events(.began(first)) }
        }
        let triage = RespondTriage.of(
            found.requests, journaled: journal.latest.mapValues { .init(state: $0.state, body: $0.body) },
            start: journal.start ?? outcome.began, now: now, asOf: asOf)
        outcome.signedLater = triage.signedLater
        try refuseBeyondLimit(found.rejects, options)
        let answers = try found.answers(triage.figuresNeeded)
        outcome.notes = found.notes
        if !triage.answersNeeded.isEmpty { try refuseBeyondLimit(found.rejects.merged(with: answers.rejects), options) }
        // A request with no answer worked out is not this run's (another environment's).
        let requests = triage.open.filter { !triage.answersNeeded.contains($0.uuid) || answers.figures[$0.uuid] != nil }
        let kept = triage.kept.subtracting(triage.answersNeeded.filter { answers.figures[$0] == nil })
        // What was read is kept before anything is sent: a run killed from here on reads only what comes next.
        if !options.dryRun { try found.keep(only: kept, journal: options.journal, stateFolder: stateFolder) }
        if found.nothingNew && requests.isEmpty && outcome.signedLater == 0 {
            outcome.upToDate = true
            return
        }
        try send(requests, answers: answers, options: options, journal: &journal, outcome: &outcome)
    }

    private static func refuseBeyondLimit(_ rejects: RejectTally, _ options: RespondOptions) throws {
        if let verdict = RejectLimitError.verdict(
            rejects, maxRejects: options.report.maxRejects, consequence: "Nothing was sent: an answer needs all of its evidence.")
        {
            throw verdict
        }
    }

    /// Each open request's decision, done: missed and skipped journaled together (one flush,
    /// before the next send and at the end), each send journaled `sending`, sent, its answer
    /// journaled.
    private static func send(
        _ requests: [RespondTriage.Request], answers: RespondRequests.Answers, options: RespondOptions,
        journal: inout ConsumptionJournal, outcome: inout RespondOutcome
    ) throws {
        var settled: [JournalEvent] = []
        defer { if !options.dryRun { try? journal.append(contentsOf: settled) } }
        for request in requests {
            let (uuid, transaction) = (request.uuid, request.transactionID ?? "")
            let deadline = ConsumptionDeadline.of(request.signedAt)
            let attempt = (journal.attempts[uuid] ?? 0) + 1
            let decision = RespondDecision.of(
                request, now: options.now, recordedBody: journal.latest[uuid]?.body, figure: answers.figures[uuid],
                type: request.transactionID.flatMap { answers.types[$0] })
            if case .missed = decision {} else { outcome.open += 1 }
            let body: String
            switch decision {
            case .none:
                continue
            case .missed:
                outcome.missed += 1
                let event = JournalEvent(
                    notificationUUID: uuid, transactionID: transaction, state: .missed, at: options.clock(), attempt: attempt,
                    reason: "the 12 hours ended \(deadline) with no answer sent")
                settled.append(event)
                options.events(.journaled(event, deadline: deadline))
                continue
            case .skipped(let reason):
                outcome.skipped += 1
                let event = JournalEvent(
                    notificationUUID: uuid, transactionID: transaction, state: .skipped, at: options.clock(), attempt: attempt,
                    reason: reason)
                settled.append(event)
                options.events(.journaled(event, deadline: deadline))
                continue
            case .send(let chosen):
                body = chosen
            }
            guard !options.dryRun, let sender = options.sender else {
                options.events(
                    .wouldSend(
                        url: options.baseURL + AppStoreServerAPI.consumptionPath(transaction), uuid: uuid, deadline: deadline,
                        body: body))
                continue
            }
            // What was settled so far goes to disk first, in one write, then this request's `sending`.
            try journal.append(contentsOf: settled)
            settled = []
            try journal.append(
                JournalEvent(
                    notificationUUID: uuid, transactionID: transaction, state: .sending, at: options.clock(), body: body,
                    attempt: attempt))
            // Tokens and retries run on the real clock; --as-of only decides which requests are open,
            // so the time left is the request's, counted from now.
            let timeLeft = TimeSpan(milliseconds: deadline.milliseconds - options.now.milliseconds)
            let answer = try sender.sendConsumption(
                transactionID: transaction, body: Array(body.utf8), deadline: options.clock().adding(timeLeft))
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
                outcome.unauthorized =
                    "Apple refused the token (401): check --key-id and --issuer-id, and that --key is this app's in-app purchase key "
                    + "from App Store Connect (Users and Access, Integrations, In-App Purchase) and --bundle-id its bundle id. "
                    + "Nothing more was sent; \(transaction) will be sent again by the next run."
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
