import Ingest
import Ledger
import Support

/// The headline's figures for the calendar month before the window, from the same data, so
/// the page and the console can say whether each got better or worse.
///
/// Worked out as the trend works out earlier months: with the App Store data known at the
/// run's as-of time (a refund signed this month of a purchase served last month counts), and
/// the whole history of the cost rows read. A month's own report, closed earlier, may differ.
package struct PreviousMonthFigure: Sendable {
    package var month: CivilMonth
    package var costServed: Money
    package var refundedAmount: Money
    package var refundSunkCost: Money
    package var leaked: Money
    package var recurringLossRunRate: Money
    package var billingGrace: Money

    /// Nil when the window is not a calendar month, or the data holds nothing before it (no
    /// cost row in an earlier month, no refund in the month before).
    static func of(
        ledger: Ledger, totals: AttributionTotals, window: ReportWindow, trend: [TrendFigure], rates: ExchangeRates
    ) throws -> PreviousMonthFigure? {
        guard let previous = window.previousMonth else { return nil }
        let month = CivilMonth(previous.start)
        let refunds = try RefundFigure.all(ledger: ledger, totals: totals, window: previous, rates: rates)
        guard let classes = trend.first(where: { $0.month == month })?.classes ?? (refunds.isEmpty ? nil : ClassCosts())
        else { return nil }
        var refunded = Money.zero
        var sunk = Money.zero
        for refund in refunds {
            refunded = try refunded.adding(refund.refundedInReportCurrency ?? .zero)
            sunk = try sunk.adding(refund.sunkCost)
        }
        var runRate = Money.zero
        for cell in totals.subscriptionLeaks.values where cell.inPreviousMonth != .zero && cell.last7DaysOfPreviousMonth != .zero
        {
            runRate = try runRate.adding(cell.last30DaysOfPreviousMonth)
        }
        return PreviousMonthFigure(
            month: month, costServed: try classes.total(), refundedAmount: refunded, refundSunkCost: sunk,
            leaked: try classes[.afterRefund].adding(classes[.afterFamilyExit]), recurringLossRunRate: runRate,
            billingGrace: classes[.billingGrace])
    }
}
