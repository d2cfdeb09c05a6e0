import Ingest
import Support

enum FamilyLinker {
    /// Links every FAMILY_SHARED transaction by evidence; never guesses between candidates.
    static func link(_ transactions: [LedgerTransaction], index: PurchaseIndex) -> [FamilyLink] {
        // Read in place: a loop over the array would copy each transaction (`Ledger.withTransactions` says why).
        transactions.withUnsafeBufferPointer { link($0, index: index) }
    }

    private static func link(_ transactions: UnsafeBufferPointer<LedgerTransaction>, index: PurchaseIndex) -> [FamilyLink] {
        var links: [FamilyLink] = []
        // A link for every member: room for them all at once, not doubled as they come.
        links.reserveCapacity(transactions.count(where: { $0.ownership == .familyShared }))
        for memberIndex in transactions.indices where transactions[memberIndex].ownership == .familyShared {
            let box = transactions[memberIndex].box
            let account = transactions[memberIndex].account
            func otherAccount(_ candidate: Int) -> Bool {
                account == nil || transactions[candidate].account != account
            }
            if let revoked = box.record.revocationDate {
                let candidates = index.refunds(of: box.record.productID, near: revoked).filter(otherAccount)
                if candidates.count == 1 {
                    links.append(FamilyLink(member: memberIndex, purchaser: candidates[0], method: .revocationMatch))
                    continue
                }
                if candidates.count > 1 {
                    links.append(FamilyLink(member: memberIndex, purchaser: nil, method: .ambiguous))
                    continue
                }
            }
            let isSubscription = transactions[memberIndex].type == .autoRenewable
            let expires = box.record.expiresDate
            let candidates = index.purchases(of: box.record.productID, before: box.record.purchaseDate).filter { candidate in
                otherAccount(candidate.transaction) && (!isSubscription || candidate.expires == expires)
            }.map(\.transaction)
            switch candidates.count {
            case 0: links.append(FamilyLink(member: memberIndex, purchaser: nil, method: .none))
            case 1: links.append(FamilyLink(member: memberIndex, purchaser: candidates[0], method: .purchaseMatch))
            default: links.append(FamilyLink(member: memberIndex, purchaser: nil, method: .ambiguous))
            }
        }
        return links
    }
}
