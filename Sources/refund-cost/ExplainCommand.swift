import Attribution
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic

/// `refund-cost explain`: one account's story, for the on-call engineer.
enum ExplainCommand: Command {
    static let spec = CommandSpec(
        name: "explain",
        summary: "Tell one account's story: links, transactions, grants, how access ended, family links.",
        usage: "refund-cost explain --data DIR --account ID [options]",
        options: DataOptions.around([account.spec], asOfDefault: DataOptions.AsOfDefault.everything),
        discussion: """
            Shows every transaction the account holds (ownership, product, dates, revocation), what
            ended each one's access and when the server could first know, which purchase each family
            member's transaction is linked to (and the evidence), and the account's access over time:
            the segments the cost rows are classified by. Then the account's cost rows up to the as-of
            time, by class and by the transaction each row is tied to, exactly as the report counts them.

            When DIR/play/ holds the account's Google Play orders (its purchases name it by
            obfuscatedExternalAccountId), each is shown with its access, its refunds and chargebacks,
            what the developer keeps of what it received, the delivery cost while it gave access, and
            for a chargeback what it lost: what had been received, taken back, plus that delivery cost,
            plus the bank's fee given with --chargeback-fee.
            """,
        examples: ["refund-cost explain --data Data/sample --account acct-000016 --trust-root Data/sample/test-root.der"])

    static let account = Option("account", "ID", help: "The app's account id, as in accounts.csv and the cost files.")
    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let common = try DataOptions(arguments)
        let accountID = try arguments.required(account)
        try common.checkFolder(arguments)
        let pipeline = Pipeline(common.runOptionsOverAllTime())
        // The account's rows of accounts.csv are part of its story: the records are kept.
        let loaded = try pipeline.load(keepingRecords: true)
        let costs = try pipeline.account(accountID, loaded)
        let play = loaded.play
        // The orders the ledger holds: one whose id is an App Store transaction's was left out.
        let playOrders = (play.map { PlayOrderAccess.orders(of: accountID, in: $0, asOf: loaded.ledger.options.asOf) } ?? [])
            .filter { loaded.ledger.transaction($0.order.orderID)?.store == .googlePlay }
        printWarnings(pipeline.warnings)
        try pipeline.refuseBeyondLimit(
            consequence: "No account is explained from data with rows left out, since its transactions may be among them.")
        let tally = pipeline.rejects.tally
        let links = loaded.appStore.accountLinks
        if loaded.ledger.accountIndex(of: accountID) == nil, costs.rows == 0, playOrders.isEmpty,
            !links.contains(where: { $0.accountID == accountID })
        {
            writeStandardError(AccountStory.unknown(accountID, ledger: loaded.ledger, links: links))
            return 1
        }
        print(AccountStory.text(for: accountID, ledger: loaded.ledger, links: links, rejects: tally), terminator: "")
        print(AccountStory.costText(costs, ledger: loaded.ledger, currency: common.currency), terminator: "")
        if !playOrders.isEmpty {
            let spent = try pipeline.playOrderCosts(accountID, orders: playOrders, loaded)
            let fee = common.run.configuration.chargebackFee
            print(
                PlayStory.text(playOrders, costs: spent, rates: loaded.rates, currency: common.currency, fee: fee),
                terminator: "")
        }
        let billFiles = loaded.layout.costFiles.filter(FocusPoolFile.isPoolFile)
        if !billFiles.isEmpty {
            let files = billFiles.map { HumanText.relative($0, to: common.data) }.joined(separator: ", ")
            print(
                "\nThe data holds a FOCUS bill (\(files)): these sums are the rows' own cost; the account's shares of the "
                    + "bill are in the report (run refund-cost report), since a share is known only once all usage is counted.")
        }
        return 0
    }
}
