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
    /// There are about as many people as family members. While their costs are added up each
    /// is a few numbers (`Sum`: the transaction it was first seen by, its role, its methods, its
    /// costs); a figure, with its ids (shared with the ledger's records), is made only for
    /// those with cost, once they are sorted.
    static func all(ledger: Ledger, totals: AttributionTotals) throws -> [FamilySpendFigure] {
        var sums: [Sum] = []
        var position: [Person: Int] = [:]
        func add(_ transaction: Int, family: String, role: Role, method: FamilyLinkMethod?) throws {
            let person = Person(
                family: family, role: role, account: ledger.withTransactions { $0[transaction].account },
                transaction: personalID(ledger, transaction))
            let index: Int
            if let known = position[person] {
                index = known
            } else {
                index = sums.count
                position[person] = index
                sums.append(Sum(transaction: Int32(transaction), role: role))
            }
            if let method { sums[index].methods |= bit(method) }
            sums[index].entitled = try sums[index].entitled.adding(totals.entitledInWindow[transaction])
            sums[index].afterEnd = try sums[index].afterEnd.adding(totals.afterEndInWindow[transaction])
        }
        // A member's family is its purchaser's transaction (-1: linked to none), kept beside the
        // sums by the same place: the family's id is worked out again when the figure is made.
        var familyOf: [Int32] = []
        var families = Set<String>()
        for link in ledger.familyLinks {
            let family = link.purchaser.map { personalID(ledger, $0) } ?? ""
            if !family.isEmpty { families.insert(family) }
            try add(link.member, family: family, role: .member, method: link.method)
            if familyOf.count < sums.count { familyOf.append(Int32(link.purchaser ?? -1)) }
        }
        // The purchaser's every transaction of the family (all renewals of a subscription).
        let purchased = ledger.withTransactions { transactions in
            transactions.indices.filter { transactions[$0].ownership == .purchased }
        }
        for index in purchased {
            let family = personalID(ledger, index)
            if families.contains(family) {
                try add(index, family: family, role: .purchaser, method: nil)
                if familyOf.count < sums.count { familyOf.append(Int32(index)) }
            }
        }
        position = [:]
        families = []
        let kept = sums.indices.filter { sums[$0].entitled != .zero || sums[$0].afterEnd != .zero }
        let figures = kept.map { index -> FamilySpendFigure in
            let sum = sums[index]
            let transaction = Int(sum.transaction)
            let (account, productID) = ledger.withTransactions { ($0[transaction].account, $0[transaction].box.record.productID) }
            var figure = FamilySpendFigure(
                purchaserTransactionID: familyOf[index] < 0 ? "" : personalID(ledger, Int(familyOf[index])),
                productID: productID, role: sum.role, account: account.map { ledger.accounts[$0] },
                transactionID: personalID(ledger, transaction))
            figure.methods = sum.methods
            figure.costEntitled = sum.entitled
            figure.costAfterEnd = sum.afterEnd
            return figure
        }
        sums = []
        familyOf = []
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

    /// A person's costs while they are added up: the transaction that first named the person
    /// (whose product, account and id the figure prints), and the sums.
    private struct Sum {
        var transaction: Int32
        var role: Role
        var methods: UInt8 = 0
        var entitled = Money.zero
        var afterEnd = Money.zero
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
