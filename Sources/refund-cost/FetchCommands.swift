import AppStoreAPI
import Ingest
import Pipeline
import Support

/// What every `fetch` takes: where to write, which host, and the key.
enum FetchOptions {
    static let specs: [OptionSpec] = [
        OptionSpec(
            name: "data", value: "DIR", help: "The input folder to complete (files land in notifications/ or transactions/)."),
        OptionSpec(
            name: "key", value: "FILE", help: "The in-app purchase key from App Store Connect (.p8, readable by you only)."),
        OptionSpec(name: "key-id", value: "ID", help: "The key's id."),
        OptionSpec(name: "issuer-id", value: "ID", help: "Your issuer id."),
        OptionSpec(name: "bundle-id", value: "ID", help: "The app's bundle id (the token's bid)."),
        OptionSpec(name: "environment", value: "ENV", help: "Production (default) or Sandbox: which host and how far back."),
        OptionSpec(name: "api-url", value: "URL", help: "Another base URL (tests; plain http:// only to a loopback address)."),
        OptionSpec(name: "max-pages", value: "N", help: "Stop a listing longer than N pages (default 10000)."),
        OptionSpec(name: "max-wait", value: "DURATION", help: "Longest wait for one call's retries (default 10m)."),
        OptionSpec(
            name: "dry-run", value: nil, help: "Print the requests (and the token's claims, never the token); fetch nothing."),
        OptionSpec(name: "quiet", value: nil, help: "No progress lines on stderr."),
    ]

    /// The client, from the command line.
    static func fetch(_ arguments: ParsedArguments, command: String) throws -> (PagedFetch, sandbox: Bool, data: String) {
        let data = try arguments.required("data", command: command)
        guard FileSystem.kind(data) == .directory else {
            throw UsageError.invalidValue(option: "--data", value: data, expected: "an existing folder", command: command)
        }
        let environment = try arguments.environment(command: command)
        guard environment == .production || environment == .sandbox else {
            throw UsageError.invalidValue(
                option: "--environment", value: environment.rawValue, expected: "Production or Sandbox", command: command)
        }
        let sandbox = environment == .sandbox
        let baseURL = try APICredentialsReader.baseURL(arguments, sandbox: sandbox, command: command)
        let credentials = try APICredentialsReader.read(arguments, bundleID: arguments.value("bundle-id"), command: command)
        let maxPages = try arguments.count("max-pages", default: 10_000, command: command)
        let api = try AppStoreServerAPI(
            credentials: credentials, baseURL: baseURL, maxWait: try APICredentialsReader.maxWait(arguments, command: command))
        var fetch = PagedFetch(api: api, maxPages: max(1, maxPages))
        fetch.dryRun = arguments.has("dry-run")
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
            OptionSpec(name: "since", value: "TIME", help: "Start of the range (Apple keeps 180 days, 30 in Sandbox)."),
            OptionSpec(name: "until", value: "TIME", help: "End of the range, excluded (default: now)."),
            OptionSpec(name: "only-failures", value: nil, help: "Only the notifications your server did not acknowledge."),
            CommonOptions.help,
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

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let command = spec.name
        let (fetch, sandbox, data) = try FetchOptions.fetch(arguments, command: command)
        let now = Clock.now()
        guard let since = try arguments.timestamp("since", command: command) else {
            throw UsageError.missingOption("--since TIME", command: command)
        }
        let until = try arguments.timestamp("until", command: command) ?? now
        let kept = FetchCalls.historyKept(sandbox: sandbox)
        let earliest = now.adding(TimeSpan(milliseconds: -kept.milliseconds))
        guard since >= earliest else {
            throw UsageError.invalidValue(
                option: "--since", value: arguments.value("since") ?? "",
                expected: "a time Apple still keeps: \(sandbox ? 30 : 180) days of history, so --since \(earliest) or later",
                command: command)
        }
        guard until > since else {
            throw UsageError.invalidValue(
                option: "--until", value: arguments.value("until") ?? "", expected: "a time after --since", command: command)
        }
        do {
            let (file, pages) = try FetchCalls.notifications(
                fetch, data: data, since: since, until: until, onlyFailures: arguments.has("only-failures"))
            if !arguments.has("quiet") && !arguments.has("dry-run") {
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
            OptionSpec(
                name: "original-transaction-id", value: "ID", help: "A customer's transaction id. Repeatable.", repeatable: true),
            OptionSpec(name: "accounts", value: "FILE", help: "Every original_transaction_id of this accounts.csv."),
            OptionSpec(
                name: "incomplete", value: nil,
                help: "The pages after every history of the data whose last page says hasMore."),
            OptionSpec(name: "refunds", value: nil, help: "Also each customer's refund history (refunds-<id>.jsonl)."),
            CommonOptions.help,
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

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let command = spec.name
        let (fetch, sandbox, data) = try FetchOptions.fetch(arguments, command: command)
        let quiet = arguments.has("quiet")
        if arguments.has("incomplete") {
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
        var ids = arguments.all("original-transaction-id")
        if let accounts = arguments.value("accounts") {
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
            let result = try FetchCalls.transactions(fetch, data: data, ids: ids, refunds: arguments.has("refunds")) { state in
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
