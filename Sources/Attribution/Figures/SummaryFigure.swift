import Ingest
import Ledger
import Support

/// One row of `summary.csv` (a product), of `totals.csv` (`product` nil: all products), or
/// of `store_totals.csv` (`product` nil and `scope` a store's: its products).
package struct SummaryFigure: Sendable {
    package var product: String?
    /// The product's store; nil for the empty product and for all products together.
    package var store: Store?
    package var classes = ClassCosts()
    package var leakedBeyondGrace = Money.zero
    package var leakedAccounts = 0
    package var refunds = 0
    package var refundsProrated = 0
    package var refundReversals = 0
    package var familyRefunds = 0
    package var familyExits = 0
    package var refundedAmount = Money.zero
    package var refundSunkCost = Money.zero
    package var recurringLossRunRate = Money.zero
    package var consumptionRequests = 0
    package var consumptionGranted = 0
    package var consumptionDeclined = 0
    /// PURCHASED transactions purchased or renewed in the window: what refunds are a share of.
    package var paidTransactions = 0
    /// Google Play orders charged back in the window, and what they lost (`chargebacks.csv`).
    package var chargebacks = 0
    package var chargebacksLost = Money.zero

    package init(product: String?, store: Store? = nil) {
        self.product = product
        self.store = store
    }

    /// `refunds / paidTransactions` in ten-thousandths, rounded half up; nil when nothing was paid.
    package var refundRateTenThousandths: Int? {
        guard paidTransactions > 0 else { return nil }
        return (refunds * 20_000 + paidTransactions) / (2 * paidTransactions)
    }

    package func leakedCost() throws(MoneyError) -> Money {
        try classes[.afterRefund].adding(classes[.afterFamilyExit])
    }

    package var isEmpty: Bool {
        classes.amounts.allSatisfy { $0 == .zero } && refunds == 0 && refundReversals == 0 && familyRefunds == 0
            && familyExits == 0 && refundedAmount == .zero && leakedBeyondGrace == .zero && consumptionRequests == 0
            && paidTransactions == 0 && chargebacks == 0
    }

    /// One row per product of the product index, in its order (the empty product first).
    static func perProduct(_ figures: ReportFigures, ledger: Ledger) throws -> [SummaryFigure] {
        let totals = figures.totals
        var rows = figures.products.keys.map { SummaryFigure(product: $0.id, store: $0.store) }
        for index in rows.indices {
            rows[index].classes = totals.classByProduct[index]
            rows[index].leakedBeyondGrace = totals.beyondGraceByProduct[index]
            rows[index].leakedAccounts = totals.leakingAccountsByProduct[index].count
        }
        func product(of transaction: Int) -> Int { figures.products.of(transaction: transaction) }
        for refund in figures.refunds {
            let p = product(of: refund.transactionIndex)
            rows[p].refunds += 1
            if refund.kind == .refundProrated { rows[p].refundsProrated += 1 }
            rows[p].refundedAmount = try rows[p].refundedAmount.adding(refund.refundedInReportCurrency ?? .zero)
            rows[p].refundSunkCost = try rows[p].refundSunkCost.adding(refund.sunkCost)
        }
        for notification in ledger.reversalNotifications where figures.window.contains(notification.signedDate) {
            let p = notification.transaction.flatMap { ledger.index(of: $0.transactionID) }.map(product(of:)) ?? 0
            rows[p].refundReversals += 1
        }
        ledger.withTransactions { transactions in
            for index in transactions.indices {
                let ownership = transactions[index].ownership
                if ownership == .familyShared, let end = transactions[index].end, figures.window.contains(end.at) {
                    if end.kind == .familyRefund { rows[product(of: index)].familyRefunds += 1 }
                    if end.kind == .familyExit { rows[product(of: index)].familyExits += 1 }
                }
                if ownership == .purchased && figures.window.contains(transactions[index].box.record.purchaseDate) {
                    rows[product(of: index)].paidTransactions += 1
                }
            }
        }
        for chargeback in figures.chargebacks {
            let p = product(of: chargeback.transactionIndex)
            rows[p].chargebacks += 1
            rows[p].chargebacksLost = try rows[p].chargebacksLost.adding(chargeback.lost)
        }
        for loss in figures.subscriptionLosses {
            let p = product(of: loss.transactionIndex)
            rows[p].recurringLossRunRate = try rows[p].recurringLossRunRate.adding(loss.runRate30Days)
        }
        for request in figures.consumption {
            let p = request.transactionIndex.map(product(of:)) ?? 0
            rows[p].consumptionRequests += 1
            if request.outcome == .granted { rows[p].consumptionGranted += 1 }
            if request.outcome == .declined { rows[p].consumptionDeclined += 1 }
        }
        return rows
    }

    /// Each store's products together, then the empty product's (no store): one row each, in
    /// that order, adding up to `total`.
    static func byStore(_ rows: [SummaryFigure], totals: AttributionTotals) throws -> [SummaryFigure] {
        try (Store.allCases.map(Optional.some) + [nil]).map { store in
            var figure = try total(of: rows, totals: totals, where: { $0.store == store })
            figure.store = store
            return figure
        }
    }

    /// The sum of every product row (of those `included`); leaking accounts are counted once
    /// across products.
    static func total(
        of rows: [SummaryFigure], totals: AttributionTotals, where included: (SummaryFigure) -> Bool = { _ in true }
    ) throws -> SummaryFigure {
        var all = SummaryFigure(product: nil)
        var leakingAccounts = Set<Int32>()
        for (index, row) in rows.enumerated() where included(row) {
            try all.classes.add(row.classes)
            all.leakedBeyondGrace = try all.leakedBeyondGrace.adding(row.leakedBeyondGrace)
            leakingAccounts.formUnion(totals.leakingAccountsByProduct[index])
            all.refunds += row.refunds
            all.refundsProrated += row.refundsProrated
            all.refundReversals += row.refundReversals
            all.familyRefunds += row.familyRefunds
            all.familyExits += row.familyExits
            all.refundedAmount = try all.refundedAmount.adding(row.refundedAmount)
            all.refundSunkCost = try all.refundSunkCost.adding(row.refundSunkCost)
            all.recurringLossRunRate = try all.recurringLossRunRate.adding(row.recurringLossRunRate)
            all.consumptionRequests += row.consumptionRequests
            all.consumptionGranted += row.consumptionGranted
            all.consumptionDeclined += row.consumptionDeclined
            all.paidTransactions += row.paidTransactions
            all.chargebacks += row.chargebacks
            all.chargebacksLost = try all.chargebacksLost.adding(row.chargebacksLost)
        }
        all.leakedAccounts = leakingAccounts.count
        return all
    }
}
