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
    package var purchaserTransactionID: String { purchase.text }
    package var productID: String
    package var role: Role
    package var account: String?
    /// The person's own transaction (its original id for a subscription).
    package var transactionID: String { person.text }
    /// The two ids as the ledger's records keep them (`PackedID`): a figure holds no memory of
    /// its own for them, and there are about as many figures as family members.
    package private(set) var purchase: PackedID
    private var person: PackedID
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
    /// There are about as many people as family members. Each transaction that counts for a
    /// person is a few numbers (`Share`), sorted in the order of the rows: a person's shares
    /// are then side by side and are added up in one pass, and a figure, with its ids (packed
    /// as the ledger's records keep them), is made only for a person with cost. No table by
    /// person is held.
    static func all(ledger: Ledger, totals: AttributionTotals) throws -> [FamilySpendFigure] {
        var shares: [Share] = []
        var families = Set<PackedID>()
        for link in ledger.familyLinks {
            if let purchaser = link.purchaser { families.insert(personalID(ledger, purchaser)) }
            shares.append(
                Share(family: Int32(link.purchaser ?? -1), transaction: Int32(link.member), role: .member, method: link.method))
        }
        // The purchaser's every transaction of the family (all renewals of a subscription).
        ledger.withTransactions { transactions in
            for index in transactions.indices where transactions[index].ownership == .purchased {
                if families.contains(personalID(ledger, index)) {
                    shares.append(Share(family: Int32(index), transaction: Int32(index), role: .purchaser, method: nil))
                }
            }
        }
        families = []
        let order = rowOrder(shares, ledger)
        // One person: the shares from `start` that name the same family, role, account and id.
        func personEnd(from start: Int) -> Int {
            var end = start + 1
            while end < order.count && samePerson(shares[order[start]], shares[order[end]], ledger) { end += 1 }
            return end
        }
        var persons = 0
        var start = 0
        while start < order.count {
            start = personEnd(from: start)
            persons += 1
        }
        // Room for every person at once: an array grown as it fills holds up to three times its
        // rows while it is copied (150 MB of 60 at a million accounts).
        var figures: [FamilySpendFigure] = []
        figures.reserveCapacity(persons)
        start = 0
        while start < order.count {
            let end = personEnd(from: start)
            var methods: UInt8 = 0
            var entitled = Money.zero
            var afterEnd = Money.zero
            // Their figure is the first share's (in the order the shares were made), as the
            // person was first named.
            var first = order[start]
            for position in start..<end {
                let share = shares[order[position]]
                if let method = share.method { methods |= bit(method) }
                entitled = try entitled.adding(totals.entitledInWindow[Int(share.transaction)])
                afterEnd = try afterEnd.adding(totals.afterEndInWindow[Int(share.transaction)])
                first = min(first, order[position])
            }
            start = end
            guard entitled != .zero || afterEnd != .zero else { continue }
            let share = shares[first]
            let transaction = Int(share.transaction)
            let (account, productID) = ledger.withTransactions { ($0[transaction].account, $0[transaction].box.record.productID) }
            var figure = FamilySpendFigure(
                productID: productID, role: share.role, account: account.map { ledger.accounts[$0] },
                purchase: familyID(share, ledger), person: personalID(ledger, transaction))
            figure.methods = methods
            figure.costEntitled = entitled
            figure.costAfterEnd = afterEnd
            figures.append(figure)
        }
        return figures
    }

    /// One transaction counted for a person: the purchase of its family (-1: linked to none),
    /// the transaction, the person's role and how a member's transaction was linked.
    private struct Share {
        var family: Int32
        var transaction: Int32
        var role: Role
        var method: FamilyLinkMethod?
    }

    /// The shares' places in the order of the rows: by family id (ids compare as numbers when
    /// they are numbers, by bytes when not or on a tie: a member linked to none, of an empty
    /// id, after every family whose id is a number), the purchaser first, then by account (the
    /// ledger's accounts are sorted, so by place) and by the person's id.
    private static func rowOrder(_ shares: [Share], _ ledger: Ledger) -> [Int] {
        // Each id's number worked out once; the text is read only when two numbers tie.
        let numbers = shares.map { share in
            (
                family: share.family < 0 ? UInt64.max : TransactionID.number(personalID(ledger, Int(share.family)).text),
                person: TransactionID.number(personalID(ledger, Int(share.transaction)).text)
            )
        }
        let accounts = ledger.withTransactions { transactions in shares.map { transactions[Int($0.transaction)].account ?? -1 } }
        return shares.indices.sorted { a, b in
            let left = shares[a], right = shares[b]
            if numbers[a].family != numbers[b].family { return numbers[a].family < numbers[b].family }
            // Shares of one family mostly name the same purchase: its id is then not read.
            if left.family != right.family {
                let leftFamily = familyID(left, ledger), rightFamily = familyID(right, ledger)
                if leftFamily != rightFamily { return leftFamily.text.bytesPrecede(rightFamily.text) }
            }
            if left.role != right.role { return left.role == .purchaser }
            if accounts[a] != accounts[b] { return accounts[a] < accounts[b] }
            if numbers[a].person != numbers[b].person { return numbers[a].person < numbers[b].person }
            if left.transaction != right.transaction {
                let leftID = personalID(ledger, Int(left.transaction)), rightID = personalID(ledger, Int(right.transaction))
                if leftID != rightID { return leftID.text.bytesPrecede(rightID.text) }
            }
            return a < b
        }
    }

    /// The family's id: its purchase's, or empty for a member linked to none.
    private static func familyID(_ share: Share, _ ledger: Ledger) -> PackedID {
        share.family < 0 ? PackedID("") : personalID(ledger, Int(share.family))
    }

    /// Whether two shares are the same person's: the same family id, role, account and id.
    private static func samePerson(_ left: Share, _ right: Share, _ ledger: Ledger) -> Bool {
        guard left.role == right.role,
            ledger.withTransactions({ $0[Int(left.transaction)].account == $0[Int(right.transaction)].account })
        else { return false }
        // The same purchase, or the same transaction, has the same id: only other ones are read.
        return (left.family == right.family || familyID(left, ledger) == familyID(right, ledger))
            && (left.transaction == right.transaction
                || personalID(ledger, Int(left.transaction)) == personalID(ledger, Int(right.transaction)))
    }

    /// The id a person's transaction counts under: the original for a subscription.
    private static func personalID(_ ledger: Ledger, _ index: Int) -> PackedID {
        ledger.withTransactions { transactions in
            // Stored fields only: a computed one (`id`) would copy the transaction to call its getter.
            let record = transactions[index].box
            return transactions[index].type == .autoRenewable
                ? record.record.packedOriginalTransactionID : record.record.packedTransactionID
        }
    }
}
