import Ingest
import Ledger
import Support

/// One row of `chargebacks.csv`: a Google Play order whose buyer's bank took the money back
/// inside the window, and what the chargeback lost (docs/domain.md rule 16).
package struct ChargebackFigure: Sendable {
    package var transaction: TransactionFacts
    /// Ledger order of the order, for sorting and per-product sums.
    package var transactionIndex: Int
    package var chargedBackAt: Timestamp
    /// Units the chargeback took back, of `quantity` bought.
    package var units: Int64
    package var quantity: Int64
    /// Who voided it (`user`, `developer`, `google`, or Google's number for one this version does not know).
    package var voidSource: String
    /// What the order says the developer had received for those units, in the buyer's currency;
    /// nil when the order does not say.
    package var received: PlayAmount?
    /// `received` in the report currency at the chargeback's day.
    package var receivedInReportCurrency: Money?
    /// The bank's fee (`--chargeback-fee`), in the report currency.
    package var fee: Money
    /// Cost tied to the order while it gave access: delivered, and not paid for.
    package var deliveryCost: Money
    /// Cost tied to the order after its access ended (also in `after_refund`).
    package var costAfterChargeback: Money
    /// What was received, the fee and the delivery cost together.
    package var lost: Money

    /// The chargebacks of Google Play orders inside the window, by time then order id.
    static func all(ledger: Ledger, totals: AttributionTotals, window: ReportWindow, rates: ExchangeRates, fee: Money)
        throws -> [ChargebackFigure]
    {
        var figures: [ChargebackFigure] = []
        for (index, held) in ledger.playOrders {
            let access = PlayOrderAccess(held)
            guard let chargeback = access.chargeback, window.contains(chargeback.voidedTime) else { continue }
            let received = access.chargedBack
            let converted = try received.map {
                try rates.reportAmount($0.money, from: $0.currency, onDay: chargeback.voidedTime.dayNumber)
            }
            let delivered = totals.grantedByTransaction[index]
            figures.append(
                ChargebackFigure(
                    transaction: TransactionFacts(ledger, transaction: index), transactionIndex: index,
                    chargedBackAt: chargeback.voidedTime,
                    units: access.chargedBackUnits, quantity: access.quantity,
                    voidSource: chargeback.voidSource?.name ?? chargeback.rawSource.map(String.init) ?? "",
                    received: received, receivedInReportCurrency: converted, fee: fee, deliveryCost: delivered,
                    costAfterChargeback: totals.afterRefundByTransaction[index],
                    lost: try (converted ?? .zero).adding(fee).adding(delivered)))
        }
        return figures.sorted {
            $0.chargedBackAt != $1.chargedBackAt
                ? $0.chargedBackAt < $1.chargedBackAt : TransactionID.precedes($0.transaction.id, $1.transaction.id)
        }
    }
}
