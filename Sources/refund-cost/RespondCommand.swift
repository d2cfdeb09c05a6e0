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
        options: DataOptions.around([
            OptionSpec(name: "journal", value: "FILE", help: "What was sent and how Apple answered (JSON lines; created)."),
            OptionSpec(
                name: "key", value: "FILE", help: "The in-app purchase key from App Store Connect (.p8, readable by you only)."),
            OptionSpec(name: "key-id", value: "ID", help: "The key's id (10 characters, in App Store Connect beside the key)."),
            OptionSpec(
                name: "issuer-id", value: "ID", help: "Your issuer id (a UUID, in App Store Connect's Integrations page)."),
            OptionSpec(
                name: "api-url", value: "URL",
                help: "Another base URL (tests; plain http:// only to a loopback address)."),
            OptionSpec(name: "max-wait", value: "DURATION", help: "Longest wait for one request's retries (default 10m)."),
            OptionSpec(name: "dry-run", value: nil, help: "Print what would be sent; send nothing, write nothing."),
            OptionSpec(
                name: "heavy-use", value: "PERCENT",
                help: "Use at or above this share leans DECLINE (default 50), as for report."),
        ]),
        discussion: """
            Meant to run every few minutes (cron, a systemd timer, a Kubernetes CronJob; see
            docs/respond.md). Reads the data as report does, as of now (--as-of for another time),
            finds every CONSUMPTION_REQUEST whose 12 hours from Apple's signedDate have not passed
            and that the journal has not answered, works out the answer the report gives, checks it
            against Apple's rules and sends it: PUT /inApps/v2/transactions/consumption/{id}.

            The journal holds one answer per request: each send is journaled (and flushed) before it
            goes out and after Apple answers; a run killed mid-request sends the same body again,
            never a recomputed one. Requests without consent are journaled skipped; requests whose
            12 hours passed unanswered are journaled missed. Two runs on one journal never both
            send: the second stops and names the first.

            429 waits for Retry-After, 5xx and network errors are retried with backoff, never past
            the request's deadline or --max-wait; 401 stops the run. The key, the token and the
            Authorization header never appear in any output. With --environment Sandbox the
            sandbox host is used.

            Exit status: 0 every open request answered (or none open); 1 any refused, failed or
            missed, a 401, or input rejects beyond --max-rejects; 2 usage error.
            """,
        examples: [
            "refund-cost respond --data Data/sample --journal /tmp/refund-cost-example/journal.jsonl --as-of 2026-10-31T12:00:00Z --dry-run --trust-root Data/sample/test-root.der"
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let command = spec.name
        let common = try DataOptions(arguments, command: command)
        let journal = try arguments.required("journal", command: command)
        try DataOptions.checkOutside(journal, option: "--journal", data: common.data, command: command)
        let dryRun = arguments.has("dry-run")
        let now = common.asOf ?? Clock.now()
        let window = ReportWindow(
            start: .earliestAccepted, end: now.adding(TimeSpan(milliseconds: 1)), label: "respond")
        var report = RunOptions(data: common.data, out: "", window: window, appStore: common.ledgerOptions(asOfDefault: now))
        report.grace = common.grace
        report.maxRejects = common.maxRejects
        report.costColumns = common.costColumns
        report.threads = common.threads
        if let heavyUse = try ReportCommand.heavyUse(arguments, command: command) { report.consumptionPolicy.heavyUse = heavyUse }
        let baseURL = try APICredentialsReader.baseURL(arguments, sandbox: common.environment == .sandbox, command: command)
        let maxWait = try APICredentialsReader.maxWait(arguments, command: command)
        var api: AppStoreServerAPI?
        var tokenDescription = "JWT: give --key, --key-id, --issuer-id and --bundle-id to see its header and claims"
        // A dry run needs no key, but checks and describes one when it is given.
        if !dryRun || arguments.value("key") != nil {
            let credentials = try APICredentialsReader.read(arguments, bundleID: common.bundleID, command: command)
            tokenDescription = credentials.describeToken(now: Clock.now())
            if !dryRun {
                api = try AppStoreServerAPI(
                    credentials: credentials, baseURL: baseURL, maxWait: maxWait)
            }
        }
        var options = RespondOptions(report: report, journal: journal, api: api, baseURL: baseURL)
        options.dryRun = dryRun
        options.tokenDescription = tokenDescription
        options.useCheckpoint = common.asOf == nil
        options.say = { print($0) }
        let outcome = try RespondRun.execute(options)
        for warning in outcome.warnings { writeStandardError("warning: \(warning)\n") }
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
                    + "\(outcome.missed) missed" + (dryRun ? " (dry run: nothing sent, nothing journaled)" : ""))
        }
        return dryRun ? 0 : outcome.status
    }
}

/// The credentials of a command that calls Apple, from `--key`, `--key-id`, `--issuer-id` and
/// `--bundle-id`; the key file must be readable by its owner only.
enum APICredentialsReader {
    /// Apple's host for the environment, or `--api-url` (plain http:// only to a loopback address).
    static func baseURL(_ arguments: ParsedArguments, sandbox: Bool, command: String) throws(UsageError) -> String {
        switch APIBase.url(sandbox: sandbox, override: arguments.value("api-url")) {
        case .success(let url): return url
        case .failure(let error):
            throw .invalidValue(
                option: "--api-url", value: error.url,
                expected: "an https:// URL, or http:// to a loopback address (127.0.0.1, ::1, localhost)", command: command)
        }
    }

    /// `--max-wait`: the longest one call waits in all for its retries, in seconds.
    static func maxWait(_ arguments: ParsedArguments, command: String) throws(UsageError) -> Double {
        Double(try arguments.duration("max-wait", default: .minutes(10), upTo: .hours(12), command: command).milliseconds) / 1000
    }

    static func read(_ arguments: ParsedArguments, bundleID: String?, command: String) throws -> APICredentials {
        let path = try arguments.required("key", command: command)
        let keyID = try arguments.required("key-id", command: command)
        let issuerID = try arguments.required("issuer-id", command: command)
        guard let bundleID else { throw UsageError.missingOption("--bundle-id ID", command: command) }
        guard let exposed = FileSystem.readableByOthers(path) else {
            throw UsageError.invalidValue(option: "--key", value: path, expected: "a readable .p8 key file", command: command)
        }
        guard !exposed else {
            throw UsageError.invalidValue(
                option: "--key", value: path,
                expected: "a key only you can read: group or others can read it now; run chmod 600 \(path)", command: command)
        }
        guard let bytes = try? FileDescriptor.readAll(path), let key = ECPrivateKey(pem: bytes) else {
            throw UsageError.invalidValue(
                option: "--key", value: path,
                expected: "the in-app purchase key as App Store Connect gives it (.p8: a PKCS#8 PEM P-256 private key)",
                command: command)
        }
        return APICredentials(key: key, keyID: keyID, issuerID: issuerID, bundleID: bundleID)
    }
}
