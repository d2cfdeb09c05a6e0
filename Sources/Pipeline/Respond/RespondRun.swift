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
    /// How long the store waits for an answer: Apple's 12 hours, or Google's 24 for `respond --store play`.
    package var window = AnswerWindow.apple

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
        try run(options) { journal, outcome, diagnostics in
            try answer(options, journal: &journal, outcome: &outcome, diagnostics: diagnostics)
        }
    }

    /// What a run of either store does around its answers: the journal's folder, the lock, the
    /// journal read (a torn last line mended), what an earlier run left unreported, then
    /// `answer`, then the run's part of the journal ended with its summary.
    static func run(
        _ options: RespondOptions,
        answer: (inout ConsumptionJournal, inout RespondOutcome, DiagnosticCollector) throws -> Void
    ) throws -> RespondOutcome {
        // A journal in a folder not made yet: the folder is made, owner-only.
        let folder = FileSystem.folder(of: options.journal)
        if !options.dryRun, FileSystem.kind(folder) == .missing { try FileSystem.createDirectory(folder, mode: 0o700) }
        // The lock first: two runs must never both decide what to send.
        let lock = options.dryRun ? nil : try RunLock.journal(options.journal)
        defer { withExtendedLifetime(lock) {} }
        var journal = try ConsumptionJournal(path: options.journal)
        // Each store answers into a journal of its own: one began by the other store's runs is refused.
        try journal.requireStore(options.window.journalStore)
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
        try answer(&journal, &outcome, diagnostics)
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
        try send(
            requests, answering: appleAnswering(answers, journal: journal, options: options), options: options,
            journal: &journal, outcome: &outcome)
    }

    static func refuseBeyondLimit(_ rejects: RejectTally, _ options: RespondOptions) throws {
        if let verdict = RejectLimitError.verdict(
            rejects, maxRejects: options.report.maxRejects, consequence: "Nothing was sent: an answer needs all of its evidence.")
        {
            throw verdict
        }
    }

    /// Apple's side of the answers: each request's decision from its figure, sent with PUT.
    private static func appleAnswering(_ answers: RespondRequests.Answers, journal: ConsumptionJournal, options: RespondOptions)
        -> Answering
    {
        Answering(
            request: { "PUT " + options.baseURL + AppStoreServerAPI.consumptionPath($0.transactionID ?? "") },
            decide: { request, recorded in
                RespondDecision.of(
                    request, now: options.now, recordedBody: recorded, figure: answers.figures[request.uuid],
                    type: request.transactionID.flatMap { answers.types[$0] })
            },
            send: { request, body, deadline in
                guard let sender = options.sender else { return .failed(reason: "no sender", status: nil, errorCode: nil) }
                return try sender.sendConsumption(transactionID: request.transactionID ?? "", body: body, deadline: deadline)
            },
            unauthorized: { transaction in
                "Apple refused the token (401): check --key-id and --issuer-id, and that --key is this app's in-app purchase key "
                    + "from App Store Connect (Users and Access, Integrations, In-App Purchase) and --bundle-id its bundle id. "
                    + "Nothing more was sent; \(transaction) will be sent again by the next run."
            })
    }
}
