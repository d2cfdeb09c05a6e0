import Ingest
import Support

/// Indexes PURCHASED transactions by product so that matching a member is two binary searches.
struct PurchaseIndex {
    /// Per product: PURCHASED transactions revoked by a refund, sorted by `revocationDate`.
    private var refundsByProduct: [String: [(at: Int64, transaction: Int)]] = [:]
    /// Per product: PURCHASED transactions sorted by `purchaseDate`.
    private var purchasesByProduct: [String: [(at: Int64, transaction: Int)]] = [:]

    static let revocationWindow = TimeSpan.hours(1)
    static let purchaseWindow = TimeSpan.hours(2)

    init(_ transactions: [LedgerTransaction]) {
        // Read in place: a loop over the array would copy each transaction (`Ledger.withTransactions` says why).
        transactions.withUnsafeBufferPointer { transactions in
            for index in transactions.indices where transactions[index].ownership == .purchased {
                let box = transactions[index].box
                purchasesByProduct[box.record.productID, default: []].append((box.record.purchaseDate.milliseconds, index))
                if let revoked = box.record.revocationDate, !box.record.isUpgraded {
                    refundsByProduct[box.record.productID, default: []].append((revoked.milliseconds, index))
                }
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
