import Ingest
import Ledger
import Support

/// One row of `refunds.csv`: a refunded PURCHASED transaction of the window and what it cost.
package struct RefundFigure: Sendable {
    package var transaction: TransactionFacts
    /// Ledger order of the transaction, for sorting and per-product sums.
    package var transactionIndex: Int
    package var kind: EndKind
    package var familyMembers: Int
    /// How the linked members were tied to it, each method once, sorted.
    package var linkMethods: [FamilyLinkMethod]
    package var price: Money?
    package var priceCurrency: String?
    package var refundedAmount: Money?
    /// `refundedAmount` in the report currency at the revocation date (nil when the price or
    /// its currency is unknown).
    package var refundedInReportCurrency: Money?
    package var costPurchaser: Money
    package var costFamily: Money
    package var costAfterRevocation: Money
    package var sunkCost: Money
    /// Why it was refunded, as the file writes it: Apple's reason, or Google's `voidedReason`.
    package var reason: String

    /// PURCHASED transactions revoked by a refund inside the window and still revoked as of
    /// the as-of time, and Google Play orders refunded inside it (`play`), by revocation date
    /// then transaction id.
    static func all(ledger: Ledger, totals: AttributionTotals, window: ReportWindow, rates: ExchangeRates) throws
        -> [RefundFigure]
    {
        var refunded: [(index: Int, revoked: Timestamp)] = []
        ledger.withTransactions { transactions in
            for index in transactions.indices where transactions[index].ownership == .purchased {
                // Fields read through the box: a copy of the record would retain a dozen strings.
                let box = transactions[index].box
                guard let revoked = box.record.revocationDate, window.contains(revoked), !box.record.isUpgraded,
                    box.record.store == .appStore
                else { continue }
                refunded.append((index, revoked))
            }
        }
        let figures =
            try refunded.map { try figure($0.index, revokedAt: $0.revoked, ledger: ledger, totals: totals, rates: rates) }
            + play(ledger: ledger, totals: totals, window: window, rates: rates)
        return figures.sorted { a, b in
            let left = a.transaction.revocationDate ?? a.transaction.purchaseDate
            let right = b.transaction.revocationDate ?? b.transaction.purchaseDate
            if left != right { return left < right }
            return TransactionID.precedes(a.transaction.id, b.transaction.id)
        }
    }

    private static func figure(
        _ index: Int, revokedAt revoked: Timestamp, ledger: Ledger, totals: AttributionTotals, rates: ExchangeRates
    ) throws -> RefundFigure {
        let record = ledger.transactions[index].record
        let kind = EndKind.ofRefund(record)
        let members = ledger.members(ofPurchase: index)
        let methods = Set(members.compactMap { ledger.familyLink(ofMember: $0).map { ledger.familyLinks[$0].method } })
        var price: Money?
        var refunded: Money?
        var refundedReport: Money?
        if let milliunits = record.price {
            let full = try Money(milliunits: milliunits)
            price = full
            let amount =
                kind == .refundProrated
                ? try full.scaled(by: Int64(record.revocationPercentage ?? 100_000), over: 100_000) : full
            refunded = amount
            if let code = record.currency.flatMap(CurrencyCode.init(validating:)) {
                refundedReport = try rates.reportAmount(amount, from: code, onDay: revoked.dayNumber)
            }
        }
        let purchaser = totals.grantedByTransaction[index]
        var family = Money.zero
        var after = totals.afterRefundByTransaction[index]
        for member in members {
            family = try family.adding(totals.grantedByTransaction[member])
            after = try after.adding(totals.afterRefundByTransaction[member])
        }
        return RefundFigure(
            transaction: TransactionFacts(ledger, transaction: index), transactionIndex: index, kind: kind,
            familyMembers: members.count, linkMethods: methods.sorted { $0.rawValue < $1.rawValue }, price: price,
            priceCurrency: record.currency, refundedAmount: refunded, refundedInReportCurrency: refundedReport,
            costPurchaser: purchaser, costFamily: family, costAfterRevocation: after,
            sunkCost: try purchaser.adding(family).adding(after), reason: record.revocationReason?.reportName ?? "")
    }

    /// Google Play orders refunded inside the window (a chargeback is not a refund: it is in
    /// `ChargebackFigure`), one row an order: its refunds of the window together, dated by the
    /// last; `refund_full` when they left no unit, else `refund_prorated` with the share of
    /// units refunded (docs/domain.md rule 16).
    private static func play(ledger: Ledger, totals: AttributionTotals, window: ReportWindow, rates: ExchangeRates) throws
        -> [RefundFigure]
    {
        var figures: [RefundFigure] = []
        for (index, held) in ledger.playOrders {
            let refunds = held.voids.filter { !$0.isChargeback && window.contains($0.voidedTime) }
            guard let last = refunds.last else { continue }
            let access = PlayOrderAccess(held)
            let quantity = max(1, access.quantity)
            let units = min(quantity, refunds.reduce(0) { $0 + ($1.voidedQuantity ?? quantity) })
            let kind: EndKind = units >= quantity ? .refundFull : .refundProrated
            var facts = TransactionFacts(ledger, transaction: index)
            facts.revocationDate = last.voidedTime
            facts.revocationPercentage = kind == .refundProrated ? Int(units * 100_000 / quantity) : nil
            let price = held.order.total
            let refunded = try access.paid(units: units)
            let converted = try refunded.map {
                try rates.reportAmount($0.money, from: $0.currency, onDay: last.voidedTime.dayNumber)
            }
            let purchaser = totals.grantedByTransaction[index]
            let after = totals.afterRefundByTransaction[index]
            figures.append(
                RefundFigure(
                    transaction: facts, transactionIndex: index, kind: kind, familyMembers: 0, linkMethods: [],
                    price: price?.money, priceCurrency: price?.currency.description, refundedAmount: refunded?.money,
                    refundedInReportCurrency: converted, costPurchaser: purchaser, costFamily: .zero, costAfterRevocation: after,
                    sunkCost: try purchaser.adding(after),
                    reason: last.reason?.name ?? last.rawReason.map(String.init) ?? ""))
        }
        return figures
    }
}
