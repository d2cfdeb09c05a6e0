import Ingest
import Pipeline
import Support

/// `refund-cost fetch purchases`: Google Play's purchases by token into play/purchases/.
enum FetchPurchasesCommand: Command {
    static let spec = CommandSpec(
        name: "fetch purchases",
        summary: "Fetch the Google Play purchases play/ names but does not hold into DIR/play/purchases/.",
        usage:
            "refund-cost fetch purchases --data DIR --package-name NAME --service-account FILE [--token T ...] [--subscription]",
        options: [
            PlayFetchOptions.data.spec, PlayFetchOptions.packageName.spec, PlayFetchOptions.serviceAccount.spec, token.spec,
            subscription.spec, APIOptions.apiURL.spec, APIOptions.maxWait.spec, PlayFetchOptions.dryRun.spec,
            DataOptions.quiet.spec, CommonOptions.help,
        ],
        discussion: """
            A purchase says whose it is: obfuscatedExternalAccountId, the account the app named when
            the user bought. Without --token, every purchase token that DIR/play/notifications/,
            voided/ and orders/ name and no purchase in DIR/play/purchases/ holds is asked for, one
            call each, from purchases.subscriptionsv2 when a subscription notification, void or
            order says it is a subscription's, else from purchases.productsv2. Google's answers, each
            with the token it was asked by added as purchaseToken, one a line, land in
            DIR/play/purchases/purchases-<now>.jsonl when the last is in; a call that gets no answer
            leaves nothing there. Tokens Google does not know for the app are listed (the others are
            written), and the run exits 1.

            \(PlayFetchOptions.exitStatus)
            """,
        examples: [
            "refund-cost fetch purchases --data exports/ --package-name com.example.app --service-account play-key.json"
        ])

    static let token = Option(
        "token", "T", help: "A purchase token to fetch (repeatable); default: those play/ names and holds no purchase of.",
        repeatable: true)
    static let subscription = Flag("subscription", help: "The --token values are subscriptions' (default: one-time products').")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (api, data, package) = try PlayFetchOptions.client(arguments)
        let given = try arguments.values(token)
        var wanted: [PurchasesFetch.Wanted]
        if given.isEmpty {
            let layout = try InputLayout(root: data)
            wanted = PurchasesFetch.missing(in: try PlayInput.read(layout.play, rejects: RejectLog()))
        } else {
            var seen = Set<String>()
            wanted = given.filter { seen.insert($0).inserted }.map {
                PurchasesFetch.Wanted(token: $0, subscription: arguments.isSet(subscription))
            }
        }
        let quiet = arguments.isSet(DataOptions.quiet)
        guard !wanted.isEmpty else {
            if !quiet { print("no purchase to fetch: every purchase token play/ names has its purchase in play/purchases/") }
            return 0
        }
        let dryRun = PlayFetchOptions.sayDryRun(api, arguments)
        do {
            let outcome = try PurchasesFetch.fetch(
                api, data: data, packageName: package, wanted: wanted, now: Clock.now(), dryRun: dryRun, say: { print($0) })
            if dryRun { return 0 }
            if let file = outcome.file, !quiet {
                print("wrote \(file): \(Format.count(outcome.purchases)) of \(Format.count(wanted.count)) purchases")
            }
            guard outcome.unknown.isEmpty else {
                let shown = outcome.unknown.prefix(10).map(Reject.cut).joined(separator: ", ")
                let more = outcome.unknown.count > 10 ? " and \(outcome.unknown.count - 10) more" : ""
                writeStandardError(
                    Diagnostic(
                        "Google knows no purchase by token \(shown)\(more) for \(package): check the tokens and --package-name"
                    )
                    .description + "\n")
                return 1
            }
            return 0
        } catch let error as FetchError {
            writeStandardError(error.description + "\n")
            return 1
        }
    }
}
