import Ingest
import Ledger
import Support

/// One row of `subscription_loss.csv`: leaked auto-renewable access, or a billing grace that
/// was never paid (rule 13), of one account and transaction.
package struct SubscriptionLossFigure: Sendable {
    package var account: String
    package var transaction: TransactionFacts
    package var period: BillingPeriod
    package var leakedPeriods: Int
    package var leakedCost: Money
    package var costPerPeriod: Money
    package var stillLeaking: Bool
    package var runRate30Days: Money
    /// Cost served in the window in a billing grace that was never paid.
    package var billingGraceCost: Money
    /// Ledger order of the transaction, for sorting and per-product sums.
    package var transactionIndex: Int

    /// Leaked auto-renewable access with leaked cost inside the window, and transactions with
    /// billing grace cost in it, by account then transaction.
    static func all(ledger: Ledger, totals: AttributionTotals) throws -> [SubscriptionLossFigure] {
        var keys = Set(totals.subscriptionLeaks.filter { $0.value.inWindow != .zero }.keys)
        keys.formUnion(totals.billingGrace.filter { $0.value != .zero }.keys)
        var figures: [SubscriptionLossFigure] = []
        figures.reserveCapacity(keys.count)
        for key in keys.sorted(by: { ($0.account, $0.transaction) < ($1.account, $1.transaction) }) {
            let transaction = Int(key.transaction)
            let cell = totals.subscriptionLeaks[key].flatMap { $0.inWindow != .zero ? $0 : nil } ?? SubscriptionLeakCell()
            let periods = cell.byPeriod.count
            let still = cell.last7Days != .zero
            figures.append(
                SubscriptionLossFigure(
                    account: ledger.accounts[Int(key.account)], transaction: TransactionFacts(ledger, transaction: transaction),
                    period: SubscriptionPeriod.of(ledger.transactions[transaction], products: ledger.products),
                    leakedPeriods: periods, leakedCost: cell.total,
                    costPerPeriod: try cell.total.scaled(by: 1, over: Int64(max(periods, 1))),
                    stillLeaking: still, runRate30Days: still ? cell.last30Days : .zero,
                    billingGraceCost: totals.billingGrace[key] ?? .zero, transactionIndex: transaction))
        }
        return figures
    }
}
