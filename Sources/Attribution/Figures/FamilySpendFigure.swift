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
    package var linkMethods: [FamilyLinkMethod] {
        FamilyLinkMethod.allCases.filter { methods & Self.bit($0) != 0 }.sorted { $0.rawValue < $1.rawValue }
    }
    /// The methods, a bit each: a person's figure holds no array of its own.
    private var methods: UInt8 = 0
    /// Cost tied to the person's transactions while they granted access (paid, family_shared,
    /// billing_grace), and after their access ended (the after_* classes).
    package var costEntitled = Money.zero
    package var costAfterEnd = Money.zero

    package func costTotal() throws(MoneyError) -> Money { try costEntitled.adding(costAfterEnd) }

    private static func bit(_ method: FamilyLinkMethod) -> UInt8 {
        1 << UInt8(FamilyLinkMethod.allCases.firstIndex(of: method) ?? 0)
    }

    /// Every person of a family purchase with cost in the window: families by purchaser
    /// transaction id (members linked to none last), the purchaser before the members, members
    /// by account and transaction.
    ///
    /// There are about as many as family members: each holds its ids (shared with the ledger's
    /// records) and numbers only, and they are sorted in place.
    static func all(ledger: Ledger, totals: AttributionTotals) throws -> [FamilySpendFigure] {
        var figures: [FamilySpendFigure] = []
        var position: [Person: Int] = [:]
        func add(_ transaction: Int, family: String, role: Role, method: FamilyLinkMethod?) throws {
            let id = personalID(ledger, transaction)
            let (account, productID) = ledger.withTransactions { ($0[transaction].account, $0[transaction].box.record.productID) }
            let person = Person(family: family, role: role, account: account, transaction: id)
            let index: Int
            if let known = position[person] {
                index = known
            } else {
                index = figures.count
                position[person] = index
                figures.append(
                    FamilySpendFigure(
                        purchaserTransactionID: family, productID: productID, role: role,
                        account: account.map { ledger.accounts[$0] }, transactionID: id))
            }
            if let method { figures[index].methods |= bit(method) }
            figures[index].costEntitled = try figures[index].costEntitled.adding(totals.entitledInWindow[transaction])
            figures[index].costAfterEnd = try figures[index].costAfterEnd.adding(totals.afterEndInWindow[transaction])
        }
        var families = Set<String>()
        for link in ledger.familyLinks {
            let family = link.purchaser.map { personalID(ledger, $0) } ?? ""
            if !family.isEmpty { families.insert(family) }
            try add(link.member, family: family, role: .member, method: link.method)
        }
        // The purchaser's every transaction of the family (all renewals of a subscription).
        let purchased = ledger.withTransactions { transactions in
            transactions.indices.filter { transactions[$0].ownership == .purchased }
        }
        for index in purchased {
            let family = personalID(ledger, index)
            if families.contains(family) { try add(index, family: family, role: .purchaser, method: nil) }
        }
        position = [:]
        families = []
        figures.removeAll { $0.costEntitled == .zero && $0.costAfterEnd == .zero }
        // Ids compare as numbers when they are numbers: each id's number worked out once.
        let numbers = figures.map {
            (family: TransactionID.number($0.purchaserTransactionID), transaction: TransactionID.number($0.transactionID))
        }
        let order = figures.indices.sorted { a, b in
            let left = figures[a], right = figures[b]
            if left.purchaserTransactionID != right.purchaserTransactionID {
                return TransactionID.precedes(
                    left.purchaserTransactionID, numbers[a].family, right.purchaserTransactionID, numbers[b].family)
            }
            if left.role != right.role { return left.role == .purchaser }
            let leftAccount = left.account ?? "", rightAccount = right.account ?? ""
            if leftAccount != rightAccount { return leftAccount.bytesPrecede(rightAccount) }
            return TransactionID.precedes(left.transactionID, numbers[a].transaction, right.transactionID, numbers[b].transaction)
        }
        return order.map { figures[$0] }
    }

    /// The id a person's transaction counts under: the original for a subscription.
    private static func personalID(_ ledger: Ledger, _ index: Int) -> String {
        ledger.withTransactions { transactions in
            // Stored fields only: a computed one (`id`) would copy the transaction to call its getter.
            let record = transactions[index].box
            return transactions[index].type == .autoRenewable ? record.record.originalTransactionID : record.record.transactionID
        }
    }

    private struct Person: Hashable {
        var family: String
        var role: Role
        var account: Int?
        var transaction: String
    }
}
