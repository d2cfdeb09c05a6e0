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
    /// Nil with `--dry-run`: nothing is signed or sent.
    package var api: AppStoreServerAPI?
    package var baseURL: String
    package var dryRun = false
    /// Where respond keeps what it read between runs (`--state`; default: beside the journal).
    package var state: String?
    /// Every byte of every file the state read is hashed again (`--full-check`, once a day).
    package var fullCheck = false
    /// The run's `--as-of`, journaled beside each event's real time (nil on the clock).
    package var journalAsOf: Timestamp?
    /// What a token would claim, for `--dry-run` (never the token).
    package var tokenDescription = ""
    /// Where the dry run's lines and each answer's line go (stdout in the command, nothing
    /// with --quiet).
    package var say: (String) -> Void = { _ in }
    /// Where what needs a person goes: a refusal, a failure, a miss (stderr in the command).
    package var alert: (String) -> Void = { _ in }

    package init(report: RunOptions, now: Timestamp, journal: String, api: AppStoreServerAPI?, baseURL: String) {
        self.report = report
        self.now = now
        self.journal = journal
        self.api = api
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
        outcome.warnings = journal.recovered.map { Diagnostic.warning($0) }
        outcome.alreadyAnswered = journal.answered
        if !options.dryRun {
            outcome.unreported = journal.unreported
            for line in unreportedLines(journal.unreported) { options.alert(line) }
        }
        try answer(options, journal: &journal, outcome: &outcome)
        if !options.dryRun { try close(&journal, &outcome, options) }
        return outcome
    }

    /// What the run does between reading the journal and ending its part of it.
    private static func answer(
        _ options: RespondOptions, journal: inout ConsumptionJournal, outcome: inout RespondOutcome
    ) throws {
        let stateFolder = options.dryRun ? nil : options.state ?? options.journal + ".state"
        let found = try RespondRequests(
            options: options.report, stateFolder: stateFolder, journal: options.journal, fullCheck: options.fullCheck)
        outcome.notes = found.notes
        outcome.nothingNew = found.nothingNew
        let now = options.now
        let asOf = options.report.asOf
        // A new journal begins now (or at --start): requests whose 12 hours ended before are
        // counted in its first line, not missed one by one.
        var start = journal.start
        if journal.isEmpty {
            var first = JournalStart(begins: min(options.start ?? now, now), at: Clock.now())
            for request in found.requests
            where request.signedAt <= asOf && ConsumptionDeadline.of(request.signedAt) <= first.begins {
                first.count(signed: request.signedAt)
            }
            if !options.dryRun { try journal.begin(first) }
            start = first
            outcome.began = first
            if first.missed > 0 {
                options.say(
                    "missed   \(first.missed) requests whose 12 hours ended before this journal began (\(first.begins)), "
                        + "signed \(first.oldest.map(\.description) ?? "") to \(first.newest.map(\.description) ?? ""): one line in the journal"
                )
            }
        }

        // What each request needs: nothing (answered, or before the journal), a `missed` line,
        // the body sent before once more, or its answer worked out.
        var kept = Set<String>()
        var open: [RespondRequests.Request] = []
        var toWorkOut: [RespondRequests.Request] = []
        var workedOut = Set<String>()
        for request in found.requests {
            let latest = journal.latest[request.uuid]
            let deadline = ConsumptionDeadline.of(request.signedAt)
            if request.signedAt > asOf {
                // Not open yet (signed after the time read up to): a later run answers it.
                outcome.signedLater += 1
                kept.insert(request.uuid)
                continue
            }
            if latest?.state.isFinal == true { continue }
            // Counted in the journal's first line.
            if latest == nil, let start, deadline <= start.begins { continue }
            kept.insert(request.uuid)
            open.append(request)
            // A body recorded to be sent again is not worked out anew, but its figure says
            // whether Apple decided since.
            if now < deadline {
                toWorkOut.append(request)
                if latest?.body == nil { workedOut.insert(request.uuid) }
            }
        }
        if RejectLimitError.exceeds(found.rejects, options.report.maxRejects) {
            throw RejectLimitError(
                found.rejects, maxRejects: options.report.maxRejects,
                consequence: "Nothing was sent: an answer needs all of its evidence.")
        }
        let answers = try found.answers(toWorkOut)
        outcome.notes = found.notes
        let rejects = found.rejects.merged(with: answers.rejects)
        if !workedOut.isEmpty, RejectLimitError.exceeds(rejects, options.report.maxRejects) {
            throw RejectLimitError(
                rejects, maxRejects: options.report.maxRejects,
                consequence: "Nothing was sent: an answer needs all of its evidence.")
        }
        outcome.warnings += answers.warnings
        // A request with no answer worked out is not this run's (another environment's).
        let requests = open.filter { !workedOut.contains($0.uuid) || answers.figures[$0.uuid] != nil }
        kept.subtract(workedOut.filter { answers.figures[$0] == nil })
        // What was read is kept before anything is sent: a run killed from here on reads only what comes next.
        if !options.dryRun { try found.keep(only: kept, journal: options.journal, stateFolder: stateFolder) }
        if found.nothingNew && requests.isEmpty && outcome.signedLater == 0 {
            outcome.upToDate = true
            return
        }

        // Missed and skipped events: journaled together (one flush), before the next send and at the end.
        var settled: [JournalEvent] = []
        defer { if !options.dryRun { try? journal.append(contentsOf: settled) } }
        for request in requests {
            let uuid = request.uuid
            let transaction = request.transactionID ?? ""
            let latest = journal.latest[uuid]
            let deadline = ConsumptionDeadline.of(request.signedAt)
            let attempt = (journal.attempts[uuid] ?? 0) + 1
            guard now < deadline else {
                outcome.missed += 1
                options.alert("missed   \(uuid)  transaction \(transaction): its 12 hours ended \(deadline)")
                settled.append(
                    JournalEvent(
                        notificationUUID: uuid, transactionID: transaction, state: .missed, at: Clock.now(), attempt: attempt,
                        reason: "the 12 hours ended \(deadline) with no answer sent"))
                continue
            }
            outcome.open += 1
            let body: String
            // Apple decided already: an answer, a first one or one sent again, is of no use.
            let decided = answers.figures[uuid].flatMap(ConsumptionRules.decided)
            if let recorded = latest?.body, decided == nil {
                // Sent before (`sending` cut short, or `failed` with no sure answer): Apple may
                // hold it already, so the same bytes go again, never a recomputed answer.
                body = recorded
            } else {
                guard let figure = answers.figures[uuid] else { continue }
                if let reason = decided
                    ?? ConsumptionRules.refusal(figure, type: request.transactionID.flatMap { answers.types[$0] })
                {
                    outcome.skipped += 1
                    options.say("skipped  \(uuid)  transaction \(transaction): \(reason)")
                    settled.append(
                        JournalEvent(
                            notificationUUID: uuid, transactionID: transaction, state: .skipped, at: Clock.now(),
                            attempt: attempt, reason: reason))
                    continue
                }
                body = figure.requestBody.compact
            }
            let path = AppStoreServerAPI.consumptionPath(transaction)
            guard !options.dryRun, let api = options.api else {
                options.say(
                    "would send PUT \(options.baseURL)\(path)  (\(uuid), answer by \(deadline))\n"
                        + "  Content-Type: application/json; Authorization: Bearer <a fresh token>; \(options.tokenDescription)\n"
                        + "  body \(body)")
                continue
            }
            // What was settled so far goes to disk first, in one write, then this request's `sending`.
            try journal.append(contentsOf: settled)
            settled = []
            try journal.append(
                JournalEvent(
                    notificationUUID: uuid, transactionID: transaction, state: .sending, at: Clock.now(), body: body,
                    attempt: attempt))
            // Tokens and retries run on the real clock; --as-of only decides which requests are open,
            // so the time left is the request's, counted from now.
            let timeLeft = TimeSpan(milliseconds: deadline.milliseconds - now.milliseconds)
            let answer = try api.sendConsumption(
                transactionID: transaction, body: Array(body.utf8), deadline: Clock.now().adding(timeLeft))
            var event = JournalEvent(
                notificationUUID: uuid, transactionID: transaction, state: .failed, at: Clock.now(), body: body, attempt: attempt)
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
            var line = "\(event.state.rawValue.padding(8))  \(uuid)  transaction \(transaction)"
            if let status = event.httpStatus { line += ": HTTP \(status)" }
            if let code = event.appleErrorCode { line += ", Apple error \(code)" }
            if let reason = event.reason, event.state != .sent { line += " (\(reason))" }
            if event.state == .sent { options.say(line) } else { options.alert(line) }
        }
        if !options.dryRun {
            try journal.append(contentsOf: settled)
            settled = []
        }
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
