import AppStoreAPI
import Ingest
import Pipeline
import Support

/// What every `fetch` takes: where to write, which host, and the key.
enum FetchOptions {
    static let data = Option(
        "data", "DIR", help: "The input folder to complete (files land in notifications/ or transactions/).")
    static let bundleID = Option("bundle-id", "ID", help: "The app's bundle id (the token's bid).")
    static let environment = Option<AppStoreEnvironment>(
        "environment", "ENV", help: "Production (default) or Sandbox: which host and how far back.",
        expected: "Production or Sandbox"
    ) { text in AppStoreEnvironment(rawValue: text).flatMap { $0 == .production || $0 == .sandbox ? $0 : nil } }
    static let maxPages = Option<Int>.count(
        "max-pages", "N", help: "Stop a listing longer than N pages (default 10000).", in: 1...1_000_000_000)
    static let dryRun = Flag(
        "dry-run", help: "Print the requests (and the token's claims, never the token); fetch nothing.")

    static let specs: [OptionSpec] =
        [data.spec, APIOptions.key.spec, APIOptions.keyID.spec, APIOptions.issuerID.spec, bundleID.spec, environment.spec]
        + [APIOptions.apiURL.spec, maxPages.spec, APIOptions.maxWait.spec, dryRun.spec, DataOptions.quiet.spec]

    /// The client, from the command line.
    static func fetch(_ arguments: ParsedArguments) throws -> (PagedFetch, sandbox: Bool, data: String) {
        let data = try arguments.required(Self.data)
        guard FileSystem.kind(data) == .directory else { throw arguments.invalid(Self.data, expected: "an existing folder") }
        let sandbox = try arguments.value(environment) == .sandbox
        let baseURL = try APIOptions.baseURL(arguments, sandbox: sandbox)
        let credentials = try APIOptions.credentials(arguments, bundleID: try arguments.value(bundleID))
        let api = try AppStoreServerAPI(credentials: credentials, baseURL: baseURL, maxWait: try APIOptions.maxWait(arguments))
        var fetch = PagedFetch(api: api, maxPages: try arguments.value(maxPages) ?? 10_000)
        fetch.dryRun = arguments.isSet(dryRun)
        fetch.say = { print($0) }
        if fetch.dryRun { print(api.tokenDescription) }
        return (fetch, sandbox, data)
    }
}

/// `refund-cost fetch notifications`: Get Notification History into notifications/.
enum FetchNotificationsCommand: Command {
    static let spec = CommandSpec(
        name: "fetch notifications",
        summary: "Fetch the notifications Apple sent (Get Notification History) into DIR/notifications/.",
        usage:
            "refund-cost fetch notifications --data DIR --since TIME [--until TIME] [--only-failures] --key FILE --key-id ID --issuer-id ID --bundle-id ID",
        options: FetchOptions.specs + [
            since.spec, until.spec, onlyFailures.spec, CommonOptions.help,
        ],
        discussion: """
            Every page of Apple's notification history for the range, as Apple returned it, one page
            a line, lands in DIR/notifications/history-<start>-<end>.jsonl when the last page is in;
            a run that fails leaves nothing there and says how far it got. report reads the pages
            as it reads the notifications your server stored, each notificationUUID once, so a range
            that overlaps an earlier fetch, or what the server kept, counts nothing twice.
            """,
        examples: [
            "refund-cost fetch notifications --data exports/ --since 2026-10-01 --key AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --issuer-id 57246542-96fe-1a63-e053-0824d011072a --bundle-id com.example.app"
        ])

    static let since = Option<Timestamp>.time("since", help: "Start of the range (Apple keeps 180 days, 30 in Sandbox).")
    static let until = Option<Timestamp>.time("until", help: "End of the range, excluded (default: now).")
    static let onlyFailures = Flag("only-failures", help: "Only the notifications your server did not acknowledge.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (fetch, sandbox, data) = try FetchOptions.fetch(arguments)
        let now = Clock.now()
        let since = try arguments.required(Self.since)
        let until = try arguments.value(Self.until) ?? now
        let kept = FetchCalls.historyKept(sandbox: sandbox)
        let earliest = now.adding(TimeSpan(milliseconds: -kept.milliseconds))
        guard since >= earliest else {
            throw arguments.invalid(
                Self.since,
                expected: "a time Apple still keeps: \(sandbox ? 30 : 180) days of history, so --since \(earliest) or later")
        }
        guard until > since else {
            throw arguments.invalid(Self.until, expected: "a time after --since")
        }
        do {
            let (file, pages) = try FetchCalls.notifications(
                fetch, data: data, since: since, until: until, onlyFailures: arguments.isSet(onlyFailures))
            if !arguments.isSet(DataOptions.quiet) && !fetch.dryRun {
                print("wrote \(file): \(pages) page\(pages == 1 ? "" : "s") of notification history")
            }
            return 0
        } catch let error as FetchError {
            writeStandardError(error.description + "\n")
            return 1
        }
    }
}

/// `refund-cost fetch transactions`: Get Transaction History (and Refund History) into transactions/.
enum FetchTransactionsCommand: Command {
    static let spec = CommandSpec(
        name: "fetch transactions",
        summary: "Fetch customers' transaction histories (and refunds) into DIR/transactions/.",
        usage:
            "refund-cost fetch transactions --data DIR (--incomplete | --original-transaction-id ID... | --accounts FILE) [--refunds] --key FILE --key-id ID --issuer-id ID --bundle-id ID",
        options: FetchOptions.specs + [
            originalTransactionID.spec, accounts.spec, incomplete.spec, refunds.spec, CommonOptions.help,
        ],
        discussion: """
            Every page of each customer's history, as Apple returned it, lands in
            DIR/transactions/history-<id>.jsonl when its last page is in. A customer whose file is
            there is skipped, so a rerun continues where an interrupted run stopped. A customer
            Apple refuses (4xx) is reported and the others go on; 401 stops the run. Progress
            (customers, calls, rate, time left) goes to stderr.
            Exit status: 0 every history fetched, 1 any not fetched, 2 usage error.
            """,
        examples: [
            "refund-cost fetch transactions --data exports/ --accounts exports/accounts.csv --refunds --key AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --issuer-id 57246542-96fe-1a63-e053-0824d011072a --bundle-id com.example.app"
        ])

    static let originalTransactionID = Option(
        "original-transaction-id", "ID", help: "A customer's transaction id. Repeatable.", repeatable: true)
    static let accounts = Option("accounts", "FILE", help: "Every original_transaction_id of this accounts.csv.")
    static let incomplete = Flag("incomplete", help: "The pages after every history of the data whose last page says hasMore.")
    static let refunds = Flag("refunds", help: "Also each customer's refund history (refunds-<id>.jsonl).")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let command = spec.name
        let (fetch, sandbox, data) = try FetchOptions.fetch(arguments)
        let quiet = arguments.isSet(DataOptions.quiet)
        if arguments.isSet(incomplete) {
            // The pages after each cut history, named so that the next report takes it as complete.
            let cut = try FetchCalls.cutHistories(data: data, sandbox: sandbox)
            let result = try FetchCalls.continuations(fetch, data: data, cut: cut) { state in
                if !quiet { writeStandardError(state.line + "\n") }
            }
            for failure in result.failures { writeStandardError(Diagnostic("\(failure)").description + "\n") }
            if !quiet && !fetch.dryRun {
                print(
                    "completed \(result.files) of \(cut.count) cut histories (\(result.calls) pages); \(result.failures.count) not fetched"
                )
            }
            return result.failures.isEmpty ? 0 : 1
        }
        var ids = try arguments.values(originalTransactionID)
        if let accounts = try arguments.value(accounts) {
            let rejects = RejectLog()
            ids += try AccountLinkReader.read(path: accounts, rejects: rejects).map(\.originalTransactionID).filter {
                !$0.isEmpty
            }
        }
        var seen = Set<String>()
        ids = ids.filter { seen.insert($0).inserted }
        guard !ids.isEmpty else {
            throw UsageError.missingOption("--incomplete, --original-transaction-id ID or --accounts FILE", command: command)
        }
        do {
            let result = try FetchCalls.transactions(fetch, data: data, ids: ids, refunds: arguments.isSet(refunds)) { state in
                if !quiet { writeStandardError(state.line + "\n") }
            }
            for failure in result.failures { writeStandardError(Diagnostic("\(failure)").description + "\n") }
            if !quiet {
                print(
                    "fetched \(result.files) files (\(result.calls) pages) for \(ids.count) customers; \(result.skipped) already complete; "
                        + "\(result.failures.count) not fetched")
            }
            return result.failures.isEmpty ? 0 : 1
        } catch let error as FetchError {
            writeStandardError(error.description + "\n")
            return 1
        }
    }
}
