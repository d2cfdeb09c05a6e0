import AppStoreAPI
import Ingest
import Pipeline
import Support

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

    static let originalTransactionID = Option<String>(
        "original-transaction-id", "ID", help: "A customer's transaction id. Repeatable.", repeatable: true,
        expected: "a transaction id (the digits App Store Connect and the notifications show)"
    ) { id in id.isEmpty || id.utf8.contains { $0 <= 0x20 || $0 == 0x7F } ? nil : id }
    static let accounts = Option.path("accounts", "FILE", help: "Every original_transaction_id of this accounts.csv.")
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
