import AppStoreAPI
import Attribution
import Ingest
import Pipeline
import Support

/// `refund-cost respond`: answers consumption requests inside Apple's 12 hours.
enum RespondCommand: Command {
    static let spec = CommandSpec(
        name: "respond",
        summary: "Send Apple the consumption information of every open refund request, inside its 12 hours.",
        usage:
            "refund-cost respond --data DIR --journal FILE --key FILE --key-id ID --issuer-id ID --bundle-id ID [options]",
        options: DataOptions.around(
            [journal.spec, state.spec, start.spec] + APIOptions.specs + [dryRun.spec, ReportCommand.heavyUse.spec],
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

            Exit status: 0 every open request answered (or none open); 1 any refused, failed or
            missed since the journal began, a 401, a run that looks stuck, or input rejects beyond
            --max-rejects; 2 usage error.
            """,
        examples: [
            "refund-cost respond --data Data/sample --journal /tmp/refund-cost-example/journal.jsonl --as-of 2026-10-31T12:00:00Z --dry-run --trust-root Data/sample/test-root.der"
        ])

    static let journal = Option(
        "journal", "FILE", help: "What was sent and how Apple answered (JSON lines; created).")
    static let state = Option(
        "state", "DIR", help: "What respond keeps between runs, to read only what arrived since (default: JOURNAL.state).")
    static let start = Option<Timestamp>.time(
        "start", help: "A new journal begins at TIME, not now: what was missed since is journaled one by one.")
    static let dryRun = Flag("dry-run", help: "Print what would be sent; send nothing, write nothing.")

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
        var report = common.runOptions(window: window, asOfDefault: readUpTo)
        if let heavyUse = try arguments.value(ReportCommand.heavyUse) { report.consumptionPolicy.heavyUse = heavyUse }
        let baseURL = try APIOptions.baseURL(arguments, environment: common.environment)
        let maxWait = try APIOptions.maxWait(arguments)
        var api: AppStoreServerAPI?
        var tokenDescription = "JWT: give --key, --key-id, --issuer-id and --bundle-id to see its header and claims"
        // A dry run needs no key, but checks and describes one when it is given.
        if !dryRun || arguments.text(APIOptions.key) != nil {
            let credentials = try APIOptions.credentials(arguments, bundleID: common.bundleID)
            tokenDescription = credentials.describeToken(now: Clock.now())
            if !dryRun {
                api = try AppStoreServerAPI(
                    credentials: credentials, baseURL: baseURL, maxWait: maxWait)
            }
        }
        try common.checkFolder(arguments)
        var options = RespondOptions(report: report, now: now, journal: journal, api: api, baseURL: baseURL)
        options.start = try arguments.value(Self.start)
        if let start = options.start, start > now {
            throw UsageError.invalidValue(
                option: "--start", value: "\(start)", expected: "a time at or before now (\(now))", command: spec.name)
        }
        options.dryRun = dryRun
        options.journalAsOf = common.asOf
        options.tokenDescription = tokenDescription
        options.state = try arguments.value(Self.state)
        if let state = options.state {
            try DataOptions.checkOutside(state, option: Self.state, data: common.data, arguments: arguments)
        }
        options.say = { print($0) }
        let outcome: RespondOutcome
        do {
            outcome = try RespondRun.execute(options)
        } catch let busy as JournalBusyError {
            if busy.looksStuck(maxWait: TimeSpan(milliseconds: Int64(maxWait * 1000)), now: Clock.now()) { throw busy }
            if !common.quiet { print(busy.busyLine) }
            return 0
        }
        if let note = outcome.note { writeStandardError("refund-cost respond: \(note)\n") }
        printWarnings(outcome.warnings)
        if let unauthorized = outcome.unauthorized {
            writeStandardError(Diagnostic("\(unauthorized)").description + "\n")
            return 1
        }
        if outcome.upToDate {
            if !common.quiet { print("refund-cost respond: nothing new since the last run, and nothing left to answer") }
            return 0
        }
        if !common.quiet {
            print(
                "refund-cost respond as of \(now): \(outcome.open) open requests: \(outcome.sent) sent, \(outcome.refused) refused, "
                    + "\(outcome.failed) failed, \(outcome.skipped) skipped, \(outcome.alreadyAnswered) answered before; "
                    + "\(outcome.missed) missed"
                    + (outcome.signedLater > 0
                        ? "; \(outcome.signedLater) signed after \(readUpTo), read by a later run" : "")
                    + (dryRun ? " (dry run: nothing sent, nothing journaled)" : ""))
        }
        return dryRun ? 0 : outcome.status
    }
}
