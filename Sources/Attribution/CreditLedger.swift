import Ingest
import Ledger
import Support

/// Every account's credit packs (docs/domain.md rule 7), from consumable transactions and the
/// `credits` column of products.csv.
package struct CreditLedger: Sendable {
    private var packsByAccount: [Int32: [CreditPack]] = [:]

    package init(ledger: Ledger) {
        var packs: [Int32: [CreditPack]] = [:]
        ledger.withTransactions { transactions in
            for index in transactions.indices where transactions[index].type == .consumable {
                guard let account = transactions[index].account,
                    let credits = ledger.products[transactions[index].box.record.productID]?.credits
                else { continue }
                let box = transactions[index].box
                let revoked = box.record.isUpgraded ? nil : box.record.revocationDate
                // Int64 credits times an Int quantity times 1e9 fits in Int128 with room to spare.
                let nanos = Int128(credits) * Int128(box.record.quantity) * Int128(Money.nanosPerUnit)
                packs[Int32(account), default: []].append(
                    CreditPack(transaction: index, credits: nanos, purchase: box.record.purchaseDate, revokedAt: revoked))
            }
        }
        for key in packs.keys {
            packs[key]?.sort { ($0.purchase, $0.transaction) < ($1.purchase, $1.transaction) }
        }
        packsByAccount = packs
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
