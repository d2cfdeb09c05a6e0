import Attribution
import Ingest
import Ledger
import Support

/// One account's story as terminal text, for `explain`.
enum AccountStory {
    static func text(for accountID: String, ledger: Ledger, links: [AccountLinkRow], rejects: RejectTally = RejectTally())
        -> String
    {
        let declared = links.filter { $0.accountID == accountID }
        guard let account = ledger.accountIndex(of: accountID) else {
            var out: String
            if rejects.rows > 0 {
                // Refused lines may hold its transactions: never call it unlinked on partial data.
                out =
                    "account \(accountID): no transaction in the data read links to it, but \(HumanText.count(rejects.rows)) input "
                    + "\(rejects.rows == 1 ? "row was" : "rows were") refused, so this may be wrong: its transactions may be among them.\n"
                if let most = RejectAdvice.sentence(rejects) { out += "  Most: \(most)\n" }
            } else {
                out = "account \(accountID): no transaction links to it, so its cost is unlinked.\n"
            }
            for row in declared {
                out += "  accounts.csv \(row.source.line): \(linkText(row)): no such transaction in the data\n"
            }
            return out
        }
        let held = ledger.transactionsByAccount[account]
        var out = "account \(accountID): \(held.count) transaction\(held.count == 1 ? "" : "s")\n"
        for row in declared { out += "  linked by accounts.csv line \(row.source.line): \(linkText(row))\n" }
        out += "\ntransactions\n"
        for index in held { out += transactionText(index, ledger: ledger) + familyText(index, ledger: ledger) }
        out += "\naccess over time (what each cost row at that time is classified by)\n"
        for (start, access) in ledger.timelines.segments(account: account) {
            out += "  from \(start)  " + describe(access, ledger) + "\n"
        }
        return out
    }

    /// An id no input mentions: say so, and name the ids it is closest to.
    static func unknown(_ accountID: String, ledger: Ledger, links: [AccountLinkRow]) -> String {
        let known = Set(ledger.accounts).union(links.map(\.accountID)).sorted()
        let wanted = Array(accountID.utf8)
        let near = known.map { (id: $0, distance: ArgumentParser.editDistance(wanted, Array($0.utf8))) }
            .filter { $0.distance <= 2 }.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }.prefix(5).map(\.id)
        var text =
            Diagnostic(
                "account '\(accountID)' appears in no input: no transaction, no accounts.csv row and no cost row names it."
            )
            .description + "\n"
        if !near.isEmpty { text += "Did you mean: \(near.joined(separator: ", "))?\n" }
        return text + "Account ids are compared exactly, as the cost files and accounts.csv write them.\n"
    }

    private static func linkText(_ row: AccountLinkRow) -> String {
        "original_transaction_id \(row.originalTransactionID.isEmpty ? "-" : row.originalTransactionID)"
            + (row.appAccountToken.map { ", app_account_token \($0)" } ?? "")
    }

    /// The transaction, its dates and price, how its access ended and how often it was seen.
    private static func transactionText(_ index: Int, ledger: Ledger) -> String {
        let transaction = ledger.transactions[index]
        let record = transaction.record
        let type = transaction.type?.rawValue ?? record.rawType.map { "\($0) (a type this version does not know)" }
        let play = record.store == .googlePlay
        var out =
            "  \(record.transactionID)  \(record.productID)  \(play ? "Google Play order" : ownershipText(transaction))  "
            + "\(type ?? "type unknown")\n"
        let price = record.price.map { ", price \(Money(nanos: $0 * 1_000_000).formatted(decimals: 2)) \(record.currency ?? "")" }
        out +=
            "      original \(record.originalTransactionID), purchased \(record.purchaseDate)"
            + (record.expiresDate.map { ", expires \($0)" } ?? "") + (price ?? "") + "\n"
        if play, let revoked = record.revocationDate {
            // Its voids, with why and by whom, are in the account's Google Play orders below.
            out += "      voided \(revoked): no unit left (its voids are listed under Google Play orders)\n"
        } else if let revoked = record.revocationDate {
            out +=
                "      revoked \(revoked)" + (record.revocationReason.map { " (\($0.reportName))" } ?? "")
                + (record.rawRevocationType.map {
                    ", \($0)" + (record.revocationType == nil ? " (not known to this version)" : "")
                } ?? "")
                + (record.revocationPercentage.map { ", \($0 / 1000)%" } ?? "") + (record.isUpgraded ? ", upgraded" : "") + "\n"
        }
        if !transaction.grantsAccess {
            out += "      consumable: grants no standing access\n"
        } else if let end = transaction.end {
            let future = end.at > ledger.options.asOf ? " (after the as-of time)" : ""
            out +=
                "      access \(record.purchaseDate) -> \(end.at): \(play && end.kind != .expiry ? "voided" : end.kind.rawValue)\(future), "
                + "server could know at \(end.noticedAt)\n"
        } else {
            out += "      access from \(record.purchaseDate), still granted\n"
        }
        for reversal in transaction.reversals { out += "      refund reversed at \(reversal)\n" }
        if let grace = transaction.grace {
            let outcome: String
            if let renewal = grace.recoveredBy {
                outcome =
                    "billing recovered: renewal \(ledger.transactions[renewal].id) bought at \(ledger.transactions[renewal].grantStart) pays for it"
            } else if grace.end > ledger.options.asOf {
                outcome = "still running at the as-of time"
            } else {
                outcome = "ended unpaid: its cost is billing_grace, after_expiry from then on"
            }
            out += "      billing grace \(grace.start) -> \(grace.end): \(outcome)\n"
        }
        if play { return out + "      read from \(record.source) (Google Play's data is not signed)\n" }
        let copies = transaction.copies == 1 ? "1 copy" : "\(transaction.copies) copies"
        return out + "      \(copies) read; latest signed \(record.signedDate) (\(record.source))\n"
    }

    /// Which purchase a member's transaction is shared from, or who a purchase is shared with.
    private static func familyText(_ index: Int, ledger: Ledger) -> String {
        func owner(_ transaction: Int) -> String {
            ledger.transactions[transaction].account.map { ledger.accounts[$0] } ?? "an unknown account"
        }
        var out = ""
        if ledger.transactions[index].ownership == .familyShared, let linkIndex = ledger.familyLink(ofMember: index) {
            let link = ledger.familyLinks[linkIndex]
            if let purchaser = link.purchaser {
                out +=
                    "      shared from \(ledger.transactions[purchaser].id) of \(owner(purchaser)): "
                    + "\(link.method.rawValue), \(link.method.confidence) confidence\n"
            } else {
                out += "      shared from: not linked (\(link.method.rawValue))\n"
            }
        }
        for member in ledger.members(ofPurchase: index) {
            let method = ledger.familyLink(ofMember: member).map { ledger.familyLinks[$0].method.rawValue } ?? ""
            out += "      shared with \(owner(member)) through \(ledger.transactions[member].id) (\(method))\n"
        }
        return out
    }

    static func costText(_ costs: AccountCosts, ledger: Ledger, currency: CurrencyCode) -> String {
        guard costs.rows > 0, let first = costs.first, let last = costs.last else {
            return "\ncost: no cost rows for this account\n"
        }
        var out = "\ncost: \(costs.rows) rows from \(first) to \(last), in \(currency)\n"
        for costClass in CostClass.ruleOrder where costs.byClass[costClass] != .zero {
            out +=
                "  " + Format.padRight(costClass.reportName, 20) + Format.padLeft(costs.byClass[costClass].description, 16) + "\n"
        }
        out += "\ncost by tied transaction\n"
        // The rows tied to no transaction first, then in ledger order.
        let keys = costs.byTransaction.keys.sorted { ($0 ?? -1) < ($1 ?? -1) }
        for key in keys {
            guard let classes = costs.byTransaction[key] else { continue }
            let label = key.map { ledger.transactions[$0].id } ?? "(none)"
            let parts = CostClass.ruleOrder.filter { classes[$0] != .zero }.map { "\($0.reportName) \(classes[$0])" }
            out += "  " + Format.padRight(label, 20) + parts.joined(separator: ", ") + "\n"
        }
        return out
    }

    /// `purchased`, `family_shared`, or a value Apple added later, as Apple sent it.
    private static func ownershipText(_ transaction: LedgerTransaction) -> String {
        if let known = transaction.ownership { return known.reportName }
        return "inAppOwnershipType \(transaction.box.record.rawOwnership ?? "") (not known to this version: its cost is "
            + "unknown_ownership)"
    }

    static func describe(_ access: Access, _ ledger: Ledger) -> String {
        switch access {
        case .entitled(let index):
            let transaction = ledger.transactions[index]
            return "entitled through \(transaction.id) (\(ownershipText(transaction)), \(transaction.productID))"
        case .premature(let index):
            return "premature: \(ledger.transactions[index].id) is granted at \(ledger.transactions[index].grantStart)"
        case .ended(let index):
            let transaction = ledger.transactions[index]
            return "not entitled: \(transaction.id) ended by \(transaction.end?.kind.rawValue ?? "?")"
        case .billingGrace(let index):
            let transaction = ledger.transactions[index]
            let until = transaction.grace.map { " until \($0.end)" } ?? ""
            return "billing grace of \(transaction.id)\(until): served while Apple retried a failed renewal, never paid"
        case .none:
            return "not entitled: no access before or around"
        }
    }
}
