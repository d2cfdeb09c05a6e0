import Ingest
import Support

/// How a FAMILY_SHARED transaction was tied to the purchase that paid for it (docs/contract.md).
package enum FamilyLinkMethod: String, Sendable, Hashable, CaseIterable {
    /// A PURCHASED refund of the same product within an hour of the member's revocation.
    case revocationMatch = "revocation_match"
    /// A PURCHASED transaction of the same product bought within the two hours before the
    /// member's `purchaseDate` (same `expiresDate` for a subscription).
    case purchaseMatch = "purchase_match"
    /// More than one candidate: left unlinked rather than guessed.
    case ambiguous
    case none

    package var confidence: String {
        switch self {
        case .revocationMatch: "high"
        case .purchaseMatch: "medium"
        case .ambiguous, .none: ""
        }
    }
}

/// A member's transaction and the purchase it was linked to, with the evidence used.
package struct FamilyLink: Sendable, Hashable {
    package var member: Int
    package var purchaser: Int?
    package var method: FamilyLinkMethod
}

/// Indexes PURCHASED transactions by product so that matching a member is two binary searches.
struct PurchaseIndex {
    /// Per product: PURCHASED transactions revoked by a refund, sorted by `revocationDate`.
    private var refundsByProduct: [String: [(at: Int64, transaction: Int)]] = [:]
    /// Per product: PURCHASED transactions sorted by `purchaseDate`.
    private var purchasesByProduct: [String: [(at: Int64, transaction: Int)]] = [:]

    static let revocationWindow = TimeSpan.hours(1)
    static let purchaseWindow = TimeSpan.hours(2)

    init(_ transactions: [LedgerTransaction]) {
        for (index, transaction) in transactions.enumerated() where transaction.ownership == .purchased {
            let box = transaction.box
            purchasesByProduct[box.record.productID, default: []].append((box.record.purchaseDate.milliseconds, index))
            if let revoked = box.record.revocationDate, !box.record.isUpgraded {
                refundsByProduct[box.record.productID, default: []].append((revoked.milliseconds, index))
            }
        }
        for key in refundsByProduct.keys { refundsByProduct[key]?.sort { ($0.at, $0.transaction) < ($1.at, $1.transaction) } }
        for key in purchasesByProduct.keys { purchasesByProduct[key]?.sort { ($0.at, $0.transaction) < ($1.at, $1.transaction) } }
    }

    /// PURCHASED refunds of `product` revoked within an hour of `at`, either side.
    func refunds(of product: String, near at: Timestamp) -> [Int] {
        Self.range(
            refundsByProduct[product] ?? [], from: at.milliseconds - Self.revocationWindow.milliseconds,
            through: at.milliseconds + Self.revocationWindow.milliseconds)
    }

    /// PURCHASED transactions of `product` bought in the two hours up to `at`.
    func purchases(of product: String, before at: Timestamp) -> [Int] {
        Self.range(
            purchasesByProduct[product] ?? [], from: at.milliseconds - Self.purchaseWindow.milliseconds,
            through: at.milliseconds)
    }

    private static func range(_ sorted: [(at: Int64, transaction: Int)], from low: Int64, through high: Int64) -> [Int] {
        var lower = 0
        var upper = sorted.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if sorted[middle].at < low { lower = middle + 1 } else { upper = middle }
        }
        var result: [Int] = []
        var index = lower
        while index < sorted.count && sorted[index].at <= high {
            result.append(sorted[index].transaction)
            index += 1
        }
        return result
    }
}

enum FamilyLinker {
    /// Links every FAMILY_SHARED transaction by evidence; never guesses between candidates.
    static func link(_ transactions: [LedgerTransaction], index: PurchaseIndex) -> [FamilyLink] {
        var links: [FamilyLink] = []
        for (memberIndex, member) in transactions.enumerated() where member.ownership == .familyShared {
            let box = member.box
            func otherAccount(_ candidate: Int) -> Bool {
                member.account == nil || transactions[candidate].account != member.account
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
            let isSubscription = member.type == .autoRenewable
            let candidates = index.purchases(of: box.record.productID, before: box.record.purchaseDate).filter { candidate in
                otherAccount(candidate)
                    && (!isSubscription || transactions[candidate].record.expiresDate == box.record.expiresDate)
            }
            switch candidates.count {
            case 0: links.append(FamilyLink(member: memberIndex, purchaser: nil, method: .none))
            case 1: links.append(FamilyLink(member: memberIndex, purchaser: candidates[0], method: .purchaseMatch))
            default: links.append(FamilyLink(member: memberIndex, purchaser: nil, method: .ambiguous))
            }
        }
        return links
    }
}
