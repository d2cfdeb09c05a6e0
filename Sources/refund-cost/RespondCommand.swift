import AppStoreAPI
import Attribution
import Ingest
import Pipeline
import PlayAPI
import Support

/// `refund-cost respond`: answers consumption requests inside Apple's 12 hours.
enum RespondCommand: Command {
    static let spec = CommandSpec(
        name: "respond",
        summary:
            "Send Apple the consumption information of every open refund request, inside its 12 hours (--store play: answer Google Play's refund reviews, inside their 24).",
        usage:
            "refund-cost respond --data DIR --journal FILE --key FILE --key-id ID --issuer-id ID --bundle-id ID [options]\n"
            + "       refund-cost respond --store play --data DIR --journal FILE --service-account FILE --package-name NAME [options]",
        options: DataOptions.around(
            [store.spec, journal.spec, state.spec, fullCheck.spec, start.spec] + APIOptions.specs
                + [PlayFetchOptions.serviceAccount.spec, PlayFetchOptions.packageName.spec, dryRun.spec, summary.spec],
            asOfDefault: "now by this clock, with what Apple signed up to 5 minutes ahead of it"),
        discussion: """
            Meant to run every few minutes (cron, a systemd timer, a Kubernetes CronJob; see
            docs/respond.md). Reads the data as report does, as of now (--as-of for another time),
            finds every CONSUMPTION_REQUEST whose 12 hours from Apple's signedDate have not passed
            and that the journal has not answered, works out the answer the report gives, checks it
            against Apple's rules and sends it: PUT /inApps/v2/transactions/consumption/{id}.

            The journal holds one answer per request: each send is journaled (and flushed) before it
            goes out and after Apple answers; a run killed mid-request sends the same body again,
            never a recomputed one. Requests without consent are journaled skipped; requests whose
            12 hours passed unanswered are journaled missed. A new journal (its folder is made
            too, owner-only) begins with one line counting the requests whose 12 hours had
            already ended (none of them a miss of this run); --start begins it earlier. Two runs
            on one journal never both send: the second says so in one line and exits 0, unless
            the first has held the journal longer than --max-wait and 15 minutes (it looks stuck).

            429 waits for Retry-After, 5xx and network errors are retried with backoff, never past
            the request's deadline or --max-wait; 401 stops the run. The key, the token and the
            Authorization header never appear in any output. With --environment Sandbox the
            sandbox host is used; --environment Xcode or LocalTesting needs --api-url naming the
            local server that knows that data (never one of Apple's hosts).

            --store play answers Google Play's pending refund reviews instead (orders.reviewrefund,
            inside Google's 24 hours from the notification), with the service account's key
            (--service-account) and the app's --package-name, into a journal of its own: each
            review's order is fetched from Google before its answer, which is worked out from
            the account's cost rows (the share used, the preference as DECLINE, APPROVE or
            NEUTRAL, up to 1,000 usage events). Journal, lock, retries and exit status as for
            Apple; docs/respond.md, "Google Play's refund reviews".

            Output: what needs a person goes to stderr, whatever --quiet says (a refusal, a
            failure, a miss, a wrong key, a stuck lock, an error); the rest (answers sent,
            requests skipped) to stdout, not with --quiet. Every line is written at once: a
            killed run loses none. One summary line a run, with the real time first (what it
            did, what it read, its exit status and why), on stdout without --quiet, and with
            --summary whatever --quiet says. Under cron: --quiet --summary >> LOG, so the log
            proves each run and cron mails only what needs a person.

            Exit status: 1 while something needs a person: a request refused or missed since
            the last run's summary (a run journals a summary line after its events, so each
            refusal and each miss makes one run exit 1, or the next when a run was killed
            before its summary), a request failed and not yet sent (every run until one sends
            it), a 401, a run that looks stuck, or input rejects beyond --max-rejects; alert on
            it. 0 otherwise (another run holding the journal; a dry run, unless its data is
            refused); 2 usage error.
            """,
        examples: [
            "refund-cost respond --data Data/sample --journal /tmp/refund-cost-example/journal.jsonl --as-of 2026-10-31T12:00:00Z --dry-run --trust-root Data/sample/test-root.der",
            "refund-cost respond --store play --data /tmp/refund-cost-example/both --journal /tmp/refund-cost-example/play-journal.jsonl --package-name com.example.app --dry-run",
        ])

    static let store = Option<RespondStore>.choice(
        "store", "STORE", help: "apple (default): Apple's consumption requests; play: Google Play's refund reviews.")
    static let journal = Option.path(
        "journal", "FILE", help: "What was sent and how the store answered (JSON lines; created; one a store).")
    static let state = Option.path(
        "state", "DIR", help: "What respond keeps between runs, to read only what arrived since (default: JOURNAL.state).")
    static let start = Option<Timestamp>.time(
        "start", help: "A new journal begins at TIME, not now: what was missed since is journaled one by one.")
    static let dryRun = Flag("dry-run", help: "Print what would be sent; send nothing, write nothing.")
    static let fullCheck = Flag(
        "full-check",
        help: "Hash every byte of every file the state read, and read again alone each that changed (once a day).")
    static let summary = Flag(
        "summary",
        help: "Print one timestamped line of what the run did, even with --quiet (a log that proves cron ran).")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let common = try DataOptions(arguments)
        let journal = try arguments.required(Self.journal)
        try DataOptions.checkOutside(journal, option: Self.journal, data: common.data, arguments: arguments)
        let dryRun = arguments.isSet(Self.dryRun)
        let now = common.asOf ?? Clock.now()
        // On the clock, what Apple signed a little ahead of it is read too (its clock may run ahead).
        let readUpTo = common.asOf ?? now.adding(RespondRun.clockSkew)
        let window = ReportWindow(
            start: .earliestAccepted, end: readUpTo.adding(TimeSpan(milliseconds: 1)), label: "respond")
        let report = common.runOptions(window: window, asOfDefault: readUpTo)
        let store = try arguments.value(Self.store) ?? .apple
        try store.refuseTheOtherStoresOptions(arguments)
        let baseURL = try APIOptions.baseURL(arguments, environment: common.environment)
        let maxWait = try APIOptions.maxWait(arguments)
        var sender: AppStoreServerAPI?
        var google: (api: PlayDeveloperAPI?, package: String)?
        var tokenDescription = "JWT: give --key, --key-id, --issuer-id and --bundle-id to see its header and claims"
        if store == .play {
            // A dry run needs no key, but checks and describes one when it is given.
            if !dryRun || arguments.text(PlayFetchOptions.serviceAccount) != nil {
                let (api, package) = try PlayFetchOptions.api(arguments)
                google = (api, package)
                tokenDescription = "exchanged at \(api.tokenURL): \(api.assertionDescription)"
            } else {
                google = (nil, try PlayFetchOptions.package(arguments))
                tokenDescription = "an access token: give --service-account to see the assertion's claims"
            }
        } else if !dryRun || arguments.text(APIOptions.key) != nil {
            let credentials = try APIOptions.credentials(arguments, bundleID: common.bundleID)
            tokenDescription = credentials.describeToken(now: Clock.now())
            if !dryRun {
                sender = try AppStoreServerAPI(credentials: credentials, baseURL: baseURL, maxWait: maxWait)
            }
        }
        try common.checkFolder(arguments)
        var options = RespondOptions(report: report, now: now, journal: journal, sender: sender, baseURL: baseURL)
        options.start = try arguments.value(Self.start)
        if let start = options.start, start > now {
            throw UsageError.invalidValue(
                option: "--start", value: "\(start)", expected: "a time at or before now (\(now))", command: spec.name)
        }
        options.dryRun = dryRun
        options.fullCheck = arguments.isSet(Self.fullCheck)
        options.journalAsOf = common.asOf
        options.state = try arguments.value(Self.state)
        if let state = options.state {
            try DataOptions.checkOutside(state, option: Self.state, data: common.data, arguments: arguments)
        }
        // What needs a person goes to stderr, whatever --quiet says; the rest to stdout, each
        // line written at once (a killed run loses none).
        let quiet = common.quiet
        let summary = arguments.isSet(Self.summary)
        let lines = RespondLines(tokenDescription: tokenDescription, dryRun: dryRun, store: store)
        options.events = { event in
            switch lines.line(event) {
            case (.output, let line): if !quiet { writeStandardOutput(line + "\n") }
            case (.attention, let line): writeStandardError(line + "\n")
            }
        }
        let line = RespondSummaryLine(asOf: common.asOf, readUpTo: readUpTo, dryRun: dryRun, store: store)
        func printSummary(_ text: String) { if !quiet || summary { writeStandardOutput(text + "\n") } }
        let outcome: RespondOutcome
        do {
            if let google {
                outcome = try PlayRespondRun.execute(
                    PlayRespondOptions(base: options, packageName: google.package, google: dryRun ? nil : google.api))
            } else {
                outcome = try RespondRun.execute(options)
            }
        } catch let busy as RespondBusyError {
            let stuck = busy.looksStuck(maxWait: TimeSpan(milliseconds: Int64(maxWait * 1000)), now: Clock.now())
            printSummary(line.busy(busy, stuck: stuck))
            if stuck { throw busy }
            return 0
        } catch {
            printSummary(line.stopped(by: error))
            throw error
        }
        if !quiet { for note in outcome.notes { writeStandardError("refund-cost respond: \(note)\n") } }
        printWarnings(outcome.warnings)
        if let unauthorized = outcome.unauthorized {
            writeStandardError(Diagnostic("\(unauthorized)").description + "\n")
        }
        let status = dryRun ? 0 : outcome.status
        printSummary(line.of(outcome, status: status))
        return status
    }
}

/// Which store's refund requests a respond run answers (`--store`).
enum RespondStore: String, CaseIterable, Sendable {
    case apple
    case play

    /// Whose the answers are, in every line.
    var owner: String { self == .apple ? "Apple" : "Google" }
    /// What a request names: Apple's transaction, Google's order.
    var item: String { self == .apple ? "transaction" : "order" }
    var window: AnswerWindow { self == .apple ? .apple : .play }
    /// What a request is called, and how it came: Apple signs a request, Google notifies a review.
    var requests: String { self == .apple ? "requests" : "reviews" }
    var made: String { self == .apple ? "signed" : "notified" }

    /// Each store's options belong to it alone: one given with the other store is a mistake.
    ///
    /// Apple's signature options (`--trust-root`, `--no-verify`, `--verified-files`) change
    /// nothing with `--store play`, which reads no signed data: a shared configuration may keep them.
    func refuseTheOtherStoresOptions(_ arguments: ParsedArguments) throws(UsageError) {
        let given: [(flag: String, isGiven: Bool)]
        switch self {
        case .apple:
            given = [PlayFetchOptions.serviceAccount, PlayFetchOptions.packageName].map { ($0.flag, arguments.text($0) != nil) }
            guard let first = given.first(where: \.isGiven) else { return }
            throw .needsAnother("\(first.flag) is Google Play's: give --store play with it", command: "respond")
        case .play:
            let texts = [APIOptions.key, APIOptions.keyID, APIOptions.issuerID, DataOptions.bundleID]
            given =
                texts.map { ($0.flag, arguments.text($0) != nil) } + [
                    (DataOptions.environment.flag, arguments.text(DataOptions.environment) != nil),
                    (DataOptions.unlabeledEnvironment.flag, arguments.text(DataOptions.unlabeledEnvironment) != nil),
                    (DataOptions.appAppleID.flag, arguments.text(DataOptions.appAppleID) != nil),
                    ("--state", arguments.text(RespondCommand.state) != nil),
                    ("--full-check", arguments.isSet(RespondCommand.fullCheck)),
                ]
            guard let first = given.first(where: \.isGiven) else { return }
            throw .needsAnother(
                "\(first.flag) is Apple's answers' alone: --store play reads no App Store data, takes --service-account "
                    + "and --package-name, and keeps no state",
                command: "respond")
        }
    }
}
