import Ingest
import Pipeline
import Support

/// `refund-cost fetch orders`: Google Play's orders (`orders.batchget`) into play/orders/.
enum FetchOrdersCommand: Command {
    static let spec = CommandSpec(
        name: "fetch orders",
        summary: "Fetch the Google Play orders play/ names but does not hold into DIR/play/orders/.",
        usage: "refund-cost fetch orders --data DIR --package-name NAME --service-account FILE [--order-id ID ...]",
        options: [
            PlayFetchOptions.data.spec, PlayFetchOptions.packageName.spec, PlayFetchOptions.serviceAccount.spec, orderID.spec,
            APIOptions.apiURL.spec, APIOptions.maxWait.spec, PlayFetchOptions.dryRun.spec, DataOptions.quiet.spec,
            CommonOptions.help,
        ],
        discussion: """
            An order says what the buyer paid and what the developer received (what a chargeback takes
            back); voids, notifications and purchases only name it. Without --order-id, every order id
            that DIR/play/voided/, notifications/ and purchases/ name and DIR/play/orders/ does not hold
            is asked for, 100 a call; the answers, as Google returned them, one a line, land in
            DIR/play/orders/orders-<now>.jsonl when the last is in. A call that gets no answer leaves
            nothing there. Ids Google does not know for the app are listed (the others are written),
            and the run exits 1.

            The service account signs in as for fetch voided (refund-cost fetch voided --help).

            \(PlayFetchOptions.exitStatus)
            """,
        examples: [
            "refund-cost fetch orders --data exports/ --package-name com.example.app --service-account play-key.json"
        ])

    static let orderID = Option(
        "order-id", "ID", help: "An order to fetch (GPA.…; repeatable); default: those play/ names and does not hold.",
        repeatable: true)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (api, data, package) = try PlayFetchOptions.client(arguments)
        var ids = try arguments.values(orderID)
        if ids.isEmpty {
            let layout = try InputLayout(root: data)
            // Which ids are named is all this needs: a line that cannot be read names none, and validate says so.
            ids = OrdersFetch.missing(in: try PlayInput.read(layout.play, rejects: RejectLog()))
        }
        var seen = Set<String>()
        ids = ids.filter { seen.insert($0).inserted }
        let quiet = arguments.isSet(DataOptions.quiet)
        guard !ids.isEmpty else {
            if !quiet { print("no order to fetch: every order play/ names is in play/orders/") }
            return 0
        }
        let dryRun = PlayFetchOptions.sayDryRun(api, arguments)
        do {
            let outcome = try OrdersFetch.fetch(
                api, data: data, packageName: package, ids: ids, now: Clock.now(), dryRun: dryRun, say: { print($0) })
            if dryRun { return 0 }
            if let file = outcome.file, !quiet {
                print(
                    "wrote \(file): \(Format.count(outcome.orders)) of \(Format.count(ids.count)) orders in \(outcome.calls) calls"
                )
            }
            guard outcome.unknown.isEmpty else {
                let shown = outcome.unknown.prefix(10).joined(separator: ", ")
                writeStandardError(
                    Diagnostic(
                        "Google knows no order \(shown)\(outcome.unknown.count > 10 ? " and \(outcome.unknown.count - 10) more" : "") "
                            + "for \(package): check the ids and --package-name"
                    ).description + "\n")
                return 1
            }
            return 0
        } catch let error as FetchError {
            writeStandardError(error.description + "\n")
            return 1
        }
    }
}
