import Ingest
import Ledger
import Support

/// Who ran a family purchase's deliveries: one row of `family_spend.csv`, a person (the
/// purchaser or a linked member) of one family purchase, with their cost in the window.
package struct FamilySpendFigure: Sendable {
    package enum Role: String, Sendable {
        case purchaser
        case member
    }

    /// The purchase the family shares: for a subscription the purchaser's original transaction
    /// id, so every renewal counts in one family; empty for members linked to no purchase.
    package var purchaserTransactionID: String
    package var productID: String
    package var role: Role
    package var account: String?
    /// The person's own transaction (its original id for a subscription).
    package var transactionID: String
    /// How the member's transactions were linked, each method once, sorted; empty for the purchaser.
    package var linkMethods: [FamilyLinkMethod]
    /// Cost tied to the person's transactions while they granted access (paid, family_shared,
    /// billing_grace), and after their access ended (the after_* classes).
    package var costEntitled = Money.zero
    package var costAfterEnd = Money.zero

    package func costTotal() throws(MoneyError) -> Money { try costEntitled.adding(costAfterEnd) }

    /// Every person of a family purchase with cost in the window: families by purchaser
    /// transaction id (members linked to none last), the purchaser before the members, members
    /// by account and transaction.
    static func all(ledger: Ledger, totals: AttributionTotals) throws -> [FamilySpendFigure] {
        var people: [Person: FamilySpendFigure] = [:]
        var purchases: [Int] = []
        func add(_ transaction: Int, family: String, role: Role, method: FamilyLinkMethod?) throws {
            let held = ledger.transactions[transaction]
            let person = Person(family: family, role: role, account: held.account, transaction: personalID(held))
            var figure =
                people[person]
                ?? FamilySpendFigure(
                    purchaserTransactionID: family, productID: held.record.productID, role: role,
                    account: held.account.map { ledger.accounts[$0] }, transactionID: person.transaction, linkMethods: [])
            if let method, !figure.linkMethods.contains(method) {
                figure.linkMethods = (figure.linkMethods + [method]).sorted { $0.rawValue < $1.rawValue }
            }
            figure.costEntitled = try figure.costEntitled.adding(totals.entitledInWindow[transaction])
            figure.costAfterEnd = try figure.costAfterEnd.adding(totals.afterEndInWindow[transaction])
            people[person] = figure
        }
        for link in ledger.familyLinks {
            let family = link.purchaser.map { personalID(ledger.transactions[$0]) } ?? ""
            if let purchaser = link.purchaser { purchases.append(purchaser) }
            try add(link.member, family: family, role: .member, method: link.method)
        }
        // The purchaser's every transaction of the family (all renewals of a subscription).
        let families = Set(purchases.map { personalID(ledger.transactions[$0]) })
        for (index, transaction) in ledger.transactions.enumerated()
        where transaction.ownership == .purchased && families.contains(personalID(transaction)) {
            try add(index, family: personalID(transaction), role: .purchaser, method: nil)
        }
        return people.values.filter { $0.costEntitled != .zero || $0.costAfterEnd != .zero }.sorted(by: precedes)
    }

    /// The id a person's transaction counts under: the original for a subscription.
    private static func personalID(_ transaction: LedgerTransaction) -> String {
        transaction.type == .autoRenewable ? transaction.record.originalTransactionID : transaction.record.transactionID
    }

    private static func precedes(_ a: FamilySpendFigure, _ b: FamilySpendFigure) -> Bool {
        if a.purchaserTransactionID != b.purchaserTransactionID {
            return TransactionID.precedes(a.purchaserTransactionID, b.purchaserTransactionID)
        }
        if a.role != b.role { return a.role == .purchaser }
        if a.account != b.account { return (a.account ?? "").utf8.lexicographicallyPrecedes((b.account ?? "").utf8) }
        return TransactionID.precedes(a.transactionID, b.transactionID)
    }

    private struct Person: Hashable {
        var family: String
        var role: Role
        var account: Int?
        var transaction: String
    }
}
