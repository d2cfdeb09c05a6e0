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
        options: [DataOptions.specs[0]] + [
            OptionSpec(name: "account", value: "ID", help: "The app's account id, as in accounts.csv and the cost files.")
        ] + DataOptions.specs.dropFirst() + [CommonOptions.help],
        discussion: """
            Shows every transaction the account holds (ownership, product, dates, revocation), what
            ended each one's access and when the server could first know, which purchase each family
            member's transaction is linked to (and the evidence), and the account's access over time:
            the segments the cost rows are classified by. Then the account's cost rows up to the as-of
            time, by class and by the transaction each row is tied to, exactly as the report counts them.
            """,
        examples: ["refund-cost explain --data Data/sample --account acct-000042"])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let command = spec.name
        let common = try DataOptions(arguments, command: command)
        let accountID = try arguments.required("account", command: command)
        let rejects = RejectLog()
        let loaded = try LedgerLoad(data: common.data, options: common.ledgerOptions(asOfDefault: DataOptions.everything), rejects: rejects)
        print(AccountStory.text(for: accountID, ledger: loaded.ledger, links: loaded.appStore.accountLinks), terminator: "")
        let costs = try AccountCosts.collect(
            accountID: accountID, layout: loaded.layout, ledger: loaded.ledger, rates: loaded.rates, grace: common.grace,
            mapping: common.costColumns, rejects: rejects)
        print(AccountStory.costText(costs, ledger: loaded.ledger, currency: common.currency), terminator: "")
        return 0
    }
}

/// The account's story as terminal text.
enum AccountStory {
    static func text(for accountID: String, ledger: Ledger, links: [AccountLinkRow]) -> String {
        var out = ""
        let declared = links.filter { $0.accountID == accountID }
        guard let account = ledger.accountIndex[accountID] else {
            out += "account \(accountID): no transaction links to it, so its cost is unlinked.\n"
            for row in declared {
                out += "  accounts.csv \(row.source.line): original_transaction_id \(row.originalTransactionID.isEmpty ? "-" : row.originalTransactionID)"
                    + (row.appAccountToken.map { ", app_account_token \($0)" } ?? "") + ": no such transaction in the data\n"
            }
            return out
        }
        let held = ledger.transactionsByAccount[account]
        out += "account \(accountID): \(held.count) transaction\(held.count == 1 ? "" : "s")\n"
        for row in declared {
            out += "  linked by accounts.csv line \(row.source.line): original_transaction_id \(row.originalTransactionID.isEmpty ? "-" : row.originalTransactionID)"
                + (row.appAccountToken.map { ", app_account_token \($0)" } ?? "") + "\n"
        }
        out += "\ntransactions\n"
        for index in held {
            let transaction = ledger.transactions[index]
            let record = transaction.record
            out += "  \(record.transactionID)  \(record.productID)  \(transaction.ownership.reportName)"
                + "  \(transaction.type?.rawValue ?? record.rawType ?? "type unknown")\n"
            out += "      original \(record.originalTransactionID), purchased \(record.purchaseDate)"
                + (record.expiresDate.map { ", expires \($0)" } ?? "")
                + (record.price.map { ", price \(Money(nanos: $0 * 1_000_000).formatted(decimals: 2)) \(record.currency ?? "")" } ?? "") + "\n"
            if let revoked = record.revocationDate {
                out += "      revoked \(revoked)" + (record.revocationReason.map { " (\($0.reportName))" } ?? "")
                    + (record.rawRevocationType.map { ", \($0)" } ?? "")
                    + (record.revocationPercentage.map { ", \($0 / 1000)%" } ?? "") + (record.isUpgraded ? ", upgraded" : "") + "\n"
            }
            if !transaction.grantsAccess {
                out += "      consumable: grants no standing access\n"
            } else if let end = transaction.end {
                let future = end.at > ledger.options.asOf ? " (after the as-of time)" : ""
                out += "      access \(record.purchaseDate) -> \(end.at): \(end.kind.rawValue)\(future), server could know at \(end.noticedAt)\n"
            } else {
                out += "      access from \(record.purchaseDate), still granted\n"
            }
            for reversal in transaction.reversals { out += "      refund reversed at \(reversal)\n" }
            out += "      \(transaction.copies) cop\(transaction.copies == 1 ? "y" : "ies") read; latest signed \(record.signedDate) (\(record.source))\n"
            if transaction.ownership == .familyShared, let linkIndex = ledger.familyLinkByMember[index] {
                let link = ledger.familyLinks[linkIndex]
                if let purchaser = link.purchaser {
                    let owner = ledger.transactions[purchaser].account.map { ledger.accounts[$0] } ?? "an unknown account"
                    out += "      shared from \(ledger.transactions[purchaser].id) of \(owner): \(link.method.rawValue), \(link.method.confidence) confidence\n"
                } else {
                    out += "      shared from: not linked (\(link.method.rawValue))\n"
                }
            }
            for member in ledger.members(ofPurchase: index) {
                let owner = ledger.transactions[member].account.map { ledger.accounts[$0] } ?? "an unknown account"
                let method = ledger.familyLinkByMember[member].map { ledger.familyLinks[$0].method.rawValue } ?? ""
                out += "      shared with \(owner) through \(ledger.transactions[member].id) (\(method))\n"
            }
        }
        out += "\naccess over time (what each cost row at that time is classified by)\n"
        for (start, access) in ledger.timelines.segments(account: account) {
            out += "  from \(start)  " + describe(access, ledger) + "\n"
        }
        return out
    }

    static func costText(_ costs: AccountCosts, ledger: Ledger, currency: CurrencyCode) -> String {
        guard costs.rows > 0, let first = costs.first, let last = costs.last else { return "\ncost: no cost rows for this account\n" }
        var out = "\ncost: \(costs.rows) rows from \(first) to \(last), in \(currency)\n"
        for costClass in CostClass.allCases where costs.byClass[costClass] != .zero {
            out += "  " + Format.padRight(costClass.reportName, 20) + Format.padLeft(costs.byClass[costClass].description, 16) + "\n"
        }
        out += "\ncost by tied transaction\n"
        let keys = costs.byTransaction.keys.sorted()
        for key in keys {
            guard let classes = costs.byTransaction[key] else { continue }
            let label = key < 0 ? "(none)" : ledger.transactions[Int(key)].id
            let parts = CostClass.allCases.filter { classes[$0] != .zero }.map { "\($0.reportName) \(classes[$0])" }
            out += "  " + Format.padRight(label, 20) + parts.joined(separator: ", ") + "\n"
        }
        return out
    }

    static func describe(_ access: Access, _ ledger: Ledger) -> String {
        switch access {
        case .entitled(let index):
            let transaction = ledger.transactions[index]
            return "entitled through \(transaction.id) (\(transaction.ownership.reportName), \(transaction.record.productID))"
        case .premature(let index):
            return "premature: \(ledger.transactions[index].id) is granted at \(ledger.transactions[index].grantStart)"
        case .ended(let index):
            let transaction = ledger.transactions[index]
            return "not entitled: \(transaction.id) ended by \(transaction.end?.kind.rawValue ?? "?")"
        case .none:
            return "not entitled: no access before or around"
        }
    }
}
