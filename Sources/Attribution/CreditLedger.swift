import Ingest
import Ledger
import Support

/// A cost row paid for with prepaid credits, held until all rows are read: credits are drawn
/// oldest purchase first, in time order, whatever order the files list the rows in.
package struct CreditRow: Sendable, Codable {
    var account: Int32
    var t: Timestamp
    var quantityNanos: Int64
    var cost: Money
    var originalCost: Money
    var currency: CurrencyCode
    /// Id in the owning totals' category table.
    var category: Int32
}

/// One consumable purchase as a source of credits.
struct CreditPack: Sendable {
    var transaction: Int
    /// Credits granted, in nano-units like a row's quantity: `credits x quantity`, held wide
    /// enough for the largest pack products.csv and Apple's quantity allow (a billion credits
    /// bought ten times is 1e19 nano-credits, past Int64).
    var credits: Int128
    var purchase: Timestamp
    /// Credits are void from the refund on.
    var revokedAt: Timestamp?
}

/// Every account's credit packs (docs/domain.md rule 7), from consumable transactions and the
/// `credits` column of products.csv.
package struct CreditLedger: Sendable {
    private var packsByAccount: [Int32: [CreditPack]] = [:]

    package init(ledger: Ledger) {
        for (index, transaction) in ledger.transactions.enumerated() where transaction.type == .consumable {
            guard let account = transaction.account, let credits = ledger.products[transaction.productID]?.credits else {
                continue
            }
            let revoked = transaction.record.isUpgraded ? nil : transaction.record.revocationDate
            // Int64 credits times an Int quantity times 1e9 fits in Int128 with room to spare.
            let nanos = Int128(credits) * Int128(transaction.record.quantity) * Int128(Money.nanosPerUnit)
            packsByAccount[Int32(account), default: []].append(
                CreditPack(
                    transaction: index, credits: nanos, purchase: transaction.record.purchaseDate, revokedAt: revoked))
        }
        for key in packsByAccount.keys {
            packsByAccount[key]?.sort { ($0.purchase, $0.transaction) < ($1.purchase, $1.transaction) }
        }
    }

    func hasPacks(_ account: Int32) -> Bool { packsByAccount[account] != nil }

    func packs(_ account: Int32) -> [CreditPack] { packsByAccount[account] ?? [] }

    /// Credits a pack grants, in whole units (for reports).
    package func credits(ofTransaction transaction: Int, ledger: Ledger) -> Int64? {
        guard let account = ledger.transactions[transaction].account else { return nil }
        return packs(Int32(account)).first { $0.transaction == transaction }.map { pack in
            Int64(clamping: pack.credits / Int128(Money.nanosPerUnit))
        }
    }
}

/// How many credits of each pack were drawn, and when: what a consumption request's
/// `consumptionPercentage` is computed from.
package struct CreditDraws: Sendable {
    /// Per pack transaction: (time, credits drawn in nano-units), in time order.
    package var draws: [Int: [(at: Timestamp, nanos: Int64)]] = [:]

    /// Credits drawn from the pack at or before `t`, in nano-units.
    package func drawn(fromTransaction transaction: Int, through t: Timestamp) -> Int64 {
        (draws[transaction] ?? []).reduce(0) { $1.at <= t ? $0 + $1.nanos : $0 }
    }
}
