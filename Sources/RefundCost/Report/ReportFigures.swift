/// Everything the output files and the page show, worked out once from the ledger and the
/// attribution totals, in the order the files are written.
package struct ReportFigures: Sendable {
    package var window: ReportWindow
    package var currency: CurrencyCode
    package var products: ProductIndex
    package var totals: AttributionTotals
    package var refunds: [RefundFigure] = []
    package var summary: [SummaryFigure] = []
    package var leaks: [LeakFigure] = []
    package var subscriptionLosses: [SubscriptionLossFigure] = []
    package var ledger: Ledger

    package var draws: CreditDraws
    package var consumption: [ConsumptionFigure] = []

    package init(
        ledger: Ledger, totals: AttributionTotals, window: ReportWindow, rates: ExchangeRates, draws: CreditDraws,
        evidence: ConsumptionEvidence = ConsumptionEvidence(), policy: ConsumptionPolicy = ConsumptionPolicy()
    ) throws {
        self.draws = draws
        self.ledger = ledger
        self.totals = totals
        self.window = window
        currency = rates.reportCurrency
        products = ProductIndex(ledger: ledger)
        refunds = try RefundFigure.all(ledger: ledger, totals: totals, window: window, rates: rates)
        leaks = LeakFigure.all(ledger: ledger, totals: totals)
        subscriptionLosses = try SubscriptionLossFigure.all(ledger: ledger, totals: totals)
        consumption = ConsumptionFigure.all(
            ledger: ledger, totals: totals, draws: draws, evidence: evidence, window: window, policy: policy)
        summary = try SummaryFigure.all(self)
    }
}

/// One row of `refunds.csv`.
package struct RefundFigure: Sendable {
    package var transaction: Int
    package var kind: EndKind
    package var members: [Int]
    package var linkMethods: String
    package var price: Money?
    package var priceCurrency: String?
    package var refundedAmount: Money?
    /// `refundedAmount` in the report currency at the revocation date (zero when unknown).
    package var refundedInReportCurrency: Money
    package var costPurchaser: Money
    package var costFamily: Money
    package var costAfterRevocation: Money
    package var sunkCost: Money

    /// PURCHASED transactions revoked by a refund inside the window and still revoked as of
    /// the as-of time, by revocation date then transaction id.
    static func all(ledger: Ledger, totals: AttributionTotals, window: ReportWindow, rates: ExchangeRates) throws -> [RefundFigure] {
        var figures: [RefundFigure] = []
        for (index, transaction) in ledger.transactions.enumerated() where transaction.ownership == .purchased {
            let record = transaction.record
            guard let revoked = record.revocationDate, window.contains(revoked), !record.isUpgraded else { continue }
            let kind: EndKind = record.revocationType == .refundProrated ? .refundProrated : .refundFull
            let members = ledger.members(ofPurchase: index)
            let methods = Set(members.compactMap { ledger.familyLinkByMember[$0].map { ledger.familyLinks[$0].method.rawValue } })
            var price: Money?
            var refunded: Money?
            var refundedReport = Money.zero
            if let milliunits = record.price {
                let full = try Money(milliunits: milliunits)
                price = full
                let amount = kind == .refundProrated
                    ? try full.scaled(by: Int64(record.revocationPercentage ?? 100_000), over: 100_000) : full
                refunded = amount
                if let code = record.currency.flatMap(CurrencyCode.init(validating:)) {
                    refundedReport = try rates.convert(amount, from: code, onDay: revoked.dayNumber)
                }
            }
            let purchaser = totals.grantedByTransaction[index]
            var family = Money.zero
            var after = totals.afterRefundByTransaction[index]
            for member in members {
                family = try family.adding(totals.grantedByTransaction[member])
                after = try after.adding(totals.afterRefundByTransaction[member])
            }
            figures.append(RefundFigure(
                transaction: index, kind: kind, members: members, linkMethods: methods.sorted().joined(separator: ";"),
                price: price, priceCurrency: record.currency, refundedAmount: refunded, refundedInReportCurrency: refundedReport,
                costPurchaser: purchaser, costFamily: family, costAfterRevocation: after,
                sunkCost: try purchaser.adding(family).adding(after)))
        }
        return figures.sorted { a, b in
            let left = ledger.transactions[a.transaction], right = ledger.transactions[b.transaction]
            if left.record.revocationDate != right.record.revocationDate {
                return (left.record.revocationDate ?? left.grantStart) < (right.record.revocationDate ?? right.grantStart)
            }
            return TransactionID.precedes(left.id, right.id)
        }
    }
}

/// One row of `leaks.csv`: an account's cost after one transaction's access ended.
package struct LeakFigure: Sendable {
    package var account: Int
    package var transaction: Int
    package var cell: LeakCell

    static func all(ledger: Ledger, totals: AttributionTotals) -> [LeakFigure] {
        totals.leaks.map { LeakFigure(account: Int($0.key.account), transaction: Int($0.key.transaction), cell: $0.value) }
            .sorted { ($0.account, $0.transaction) < ($1.account, $1.transaction) }
    }

    /// End kinds as reports write them; an upgrade with no access after it reads as an expiry.
    package func endKind(_ ledger: Ledger) -> String {
        let kind = ledger.transactions[transaction].end?.kind ?? .expiry
        return kind == .upgrade ? EndKind.expiry.rawValue : kind.rawValue
    }
}

/// One row of `subscription_loss.csv`.
package struct SubscriptionLossFigure: Sendable {
    package var account: Int
    package var transaction: Int
    package var period: BillingPeriod
    package var leakedPeriods: Int
    package var leakedCost: Money
    package var costPerPeriod: Money
    package var stillLeaking: Bool
    package var runRate30Days: Money

    /// Leaked auto-renewable access with leaked cost inside the window, by account then transaction.
    static func all(ledger: Ledger, totals: AttributionTotals) throws -> [SubscriptionLossFigure] {
        var figures: [SubscriptionLossFigure] = []
        for (key, cell) in totals.subscriptionLeaks where cell.inWindow != .zero {
            let transaction = Int(key.transaction)
            let periods = cell.byPeriod.count
            let still = cell.last7Days != .zero
            figures.append(SubscriptionLossFigure(
                account: Int(key.account), transaction: transaction,
                period: SubscriptionPeriod.of(ledger.transactions[transaction], products: ledger.products), leakedPeriods: periods,
                leakedCost: cell.total, costPerPeriod: try cell.total.scaled(by: 1, over: Int64(max(periods, 1))),
                stillLeaking: still, runRate30Days: still ? cell.last30Days : .zero))
        }
        return figures.sorted { ($0.account, $0.transaction) < ($1.account, $1.transaction) }
    }
}

/// One row of `summary.csv`; `product` nil is the `*` row for all.
package struct SummaryFigure: Sendable {
    package var product: String?
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

    package func leakedCost() throws(MoneyError) -> Money {
        try classes[.afterRefund].adding(classes[.afterFamilyExit])
    }

    var isEmpty: Bool {
        classes.amounts.allSatisfy { $0 == .zero } && refunds == 0 && refundReversals == 0 && familyRefunds == 0
            && familyExits == 0 && refundedAmount == .zero && leakedBeyondGrace == .zero && consumptionRequests == 0
    }

    /// Product rows with any figure, sorted by product id (the empty product first), then `*`.
    static func all(_ figures: ReportFigures) throws -> [SummaryFigure] {
        let ledger = figures.ledger
        let names = figures.products.names
        var rows = names.map { SummaryFigure(product: $0) }
        for index in names.indices {
            rows[index].classes = figures.totals.classByProduct[index]
            rows[index].leakedBeyondGrace = figures.totals.beyondGraceByProduct[index]
            rows[index].leakedAccounts = figures.totals.leakingAccountsByProduct[index].count
        }
        func product(of transaction: Int) -> Int { figures.products.of(transaction: Int32(transaction)) }
        for refund in figures.refunds {
            let p = product(of: refund.transaction)
            rows[p].refunds += 1
            if refund.kind == .refundProrated { rows[p].refundsProrated += 1 }
            rows[p].refundedAmount = try rows[p].refundedAmount.adding(refund.refundedInReportCurrency)
            rows[p].refundSunkCost = try rows[p].refundSunkCost.adding(refund.sunkCost)
        }
        for notification in ledger.reversalNotifications where figures.window.contains(notification.signedDate) {
            let p = notification.transaction.flatMap { ledger.transactionIndex[$0.transactionID] }.map(product(of:)) ?? 0
            rows[p].refundReversals += 1
        }
        for (index, transaction) in ledger.transactions.enumerated() where transaction.ownership == .familyShared {
            guard let end = transaction.end, figures.window.contains(end.at) else { continue }
            if end.kind == .familyRefund { rows[product(of: index)].familyRefunds += 1 }
            if end.kind == .familyExit { rows[product(of: index)].familyExits += 1 }
        }
        for loss in figures.subscriptionLosses {
            let p = product(of: loss.transaction)
            rows[p].recurringLossRunRate = try rows[p].recurringLossRunRate.adding(loss.runRate30Days)
        }
        for request in figures.consumption {
            let p = request.transaction.map(product(of:)) ?? 0
            rows[p].consumptionRequests += 1
            if request.outcome == .granted { rows[p].consumptionGranted += 1 }
            if request.outcome == .declined { rows[p].consumptionDeclined += 1 }
        }
        var all = SummaryFigure(product: nil)
        var leakingAccounts = Set<Int32>()
        for (index, row) in rows.enumerated() {
            try all.classes.add(row.classes)
            all.leakedBeyondGrace = try all.leakedBeyondGrace.adding(row.leakedBeyondGrace)
            leakingAccounts.formUnion(figures.totals.leakingAccountsByProduct[index])
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
        }
        all.leakedAccounts = leakingAccounts.count
        return rows.filter { !$0.isEmpty } + [all]
    }
}
