import Ingest
import Support

/// Indexes PURCHASED transactions by product so that matching a member is two binary searches.
struct PurchaseIndex {
    /// A PURCHASED transaction in its product's list: when it was bought (or revoked), and the
    /// `expiresDate` a family member's copy must share.
    ///
    /// The expiry is kept here because matching compares it for every candidate, many per
    /// member: read from the transaction's record, each comparison copied the whole record.
    struct Entry {
        var at: Int64
        var transaction: Int
        var expires: Timestamp?
    }

    /// Per product: PURCHASED transactions revoked by a refund, sorted by `revocationDate`.
    private var refundsByProduct: [String: [Entry]] = [:]
    /// Per product: PURCHASED transactions sorted by `purchaseDate`.
    private var purchasesByProduct: [String: [Entry]] = [:]

    /// Refunds of every account, for a ledger of some accounts only (nil: this ledger's own).
    var refundsOfEveryAccount: RefundTimes?

    static let revocationWindow = TimeSpan.hours(1)
    static let purchaseWindow = TimeSpan.hours(2)

    init(_ transactions: [LedgerTransaction]) {
        // Read in place: a loop over the array would copy each transaction (`Ledger.withTransactions` says why).
        transactions.withUnsafeBufferPointer { transactions in
            // A Google Play order is no candidate: Play shares no in-app purchase with a family.
            for index in transactions.indices where transactions[index].ownership == .purchased {
                guard transactions[index].box.record.store == .appStore else { continue }
                let record = transactions[index].box.record
                let expires = record.expiresDate
                purchasesByProduct[record.productID, default: []].append(
                    Entry(at: record.purchaseDate.milliseconds, transaction: index, expires: expires))
                if let revoked = record.revocationDate, !record.isUpgraded {
                    refundsByProduct[record.productID, default: []].append(
                        Entry(at: revoked.milliseconds, transaction: index, expires: expires))
                }
            }
        }
        for key in refundsByProduct.keys { refundsByProduct[key]?.sort(by: PurchaseIndex.precedes) }
        for key in purchasesByProduct.keys { purchasesByProduct[key]?.sort(by: PurchaseIndex.precedes) }
    }

    private static func precedes(_ a: Entry, _ b: Entry) -> Bool { (a.at, a.transaction) < (b.at, b.transaction) }

    /// PURCHASED refunds of `product` revoked within an hour of `at`, either side.
    func refunds(of product: String, near at: Timestamp) -> [Int] {
        Self.range(
            refundsByProduct[product] ?? [], from: at.milliseconds - Self.revocationWindow.milliseconds,
            through: at.milliseconds + Self.revocationWindow.milliseconds
        ).map(\.transaction)
    }

    /// True when a PURCHASED refund of `product` was revoked within an hour of `at`, in any
    /// account.
    func anyRefund(of product: String, near at: Timestamp) -> Bool {
        if let refundsOfEveryAccount { return refundsOfEveryAccount.any(of: product, near: at, window: Self.revocationWindow) }
        return !refunds(of: product, near: at).isEmpty
    }

    /// PURCHASED transactions of `product` bought in the two hours up to `at`.
    func purchases(of product: String, before at: Timestamp) -> ArraySlice<Entry> {
        Self.range(
            purchasesByProduct[product] ?? [], from: at.milliseconds - Self.purchaseWindow.milliseconds,
            through: at.milliseconds)
    }

    private static func range(_ sorted: [Entry], from low: Int64, through high: Int64) -> ArraySlice<Entry> {
        var lower = 0
        var upper = sorted.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if sorted[middle].at < low { lower = middle + 1 } else { upper = middle }
        }
        var end = lower
        while end < sorted.count && sorted[end].at <= high { end += 1 }
        return sorted[lower..<end]
    }
}
