import Ingest
import Support

/// When PURCHASED transactions were refunded, by product: the one fact about other accounts a
/// ledger of some accounts needs (whether a family member's exit was a refund, rule 3), kept
/// for every account in a few bytes a refund.
package struct RefundTimes: Sendable, Codable, Hashable {
    /// Per product, revocation times in milliseconds, sorted.
    package var byProduct: [String: [Int64]] = [:]

    package init() {}

    /// The refunds of every PURCHASED transaction of `ledger` (an upgrade is not a refund).
    package init(_ ledger: Ledger) {
        ledger.withTransactions { transactions in
            for index in transactions.indices where transactions[index].ownership == .purchased {
                let box = transactions[index].box
                // Only the App Store's refunds tell a family member's exit (Play has no families).
                guard let revoked = box.record.revocationDate, !box.record.isUpgraded, box.record.store == .appStore
                else { continue }
                byProduct[box.record.productID, default: []].append(revoked.milliseconds)
            }
        }
        for key in byProduct.keys { byProduct[key]?.sort() }
    }

    /// True when a refund of `product` was revoked within `window` of `at`, either side.
    func any(of product: String, near at: Timestamp, window: TimeSpan) -> Bool {
        guard let times = byProduct[product] else { return false }
        let low = at.milliseconds - window.milliseconds
        var lower = 0
        var upper = times.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if times[middle] < low { lower = middle + 1 } else { upper = middle }
        }
        return lower < times.count && times[lower] <= at.milliseconds + window.milliseconds
    }
}
