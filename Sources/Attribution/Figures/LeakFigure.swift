import Ingest
import Ledger
import Support

/// One row of `leaks.csv`: an account's cost after one transaction's access ended.
package struct LeakFigure: Sendable {
    package var account: String
    package var transaction: TransactionFacts
    package var cell: LeakCell

    /// By account, then transaction (ledger order).
    static func all(ledger: Ledger, totals: AttributionTotals) -> [LeakFigure] {
        totals.leaks.sorted { ($0.key.account, $0.key.transaction) < ($1.key.account, $1.key.transaction) }.map { key, cell in
            LeakFigure(
                account: ledger.accounts[Int(key.account)],
                transaction: TransactionFacts(ledger, transaction: Int(key.transaction)), cell: cell)
        }
    }

    /// A refund or a family exit, not a lapse: the server should have cut this access off.
    package var isLeak: Bool { transaction.endKind != .expiry }
}
