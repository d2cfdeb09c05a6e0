import Ingest
import Ledger
import Support

/// Everything the output files and the page show, worked out once from the ledger and the
/// attribution totals: what the attribution stage hands the report stage.
///
/// Every row carries the facts it prints, so the report stage never needs the ledger.
package struct ReportFigures: Sendable {
    package var window: ReportWindow
    /// The App Store data known at this time decided the figures (the ledger's as-of time).
    package var asOf: Timestamp
    package var currency: CurrencyCode
    package var products: ProductIndex
    /// What the figures are worked out from; the report reads the figures only.
    var totals: AttributionTotals
    /// Cost by month and class up to the window's end (`trend.csv`).
    package var trend: [TrendFigure] = []
    /// Rows and cost per day, category and class of the window (`cost_by_day.csv`).
    package var costByDay: [CostByDayFigure] = []
    /// The cost rows per input currency and around the window (the reconciliation's inputs).
    package var costRows: CostRowFigure
    package var refunds: [RefundFigure] = []
    /// One row per product with any figure, sorted by product id (the empty product first).
    package var summary: [SummaryFigure] = []
    /// All products together: what `totals.csv` and the page's headline show.
    package var total = SummaryFigure(product: nil)
    package var leaks: [LeakFigure] = []
    package var subscriptionLosses: [SubscriptionLossFigure] = []
    package var familyLinks: [FamilyLinkFigure] = []
    package var familySpend: [FamilySpendFigure] = []
    package var consumption: [ConsumptionFigure] = []
    /// The headline's figures for the month before the window; nil when there is none to compare with.
    package var previousMonth: PreviousMonthFigure?
    /// What became of a FOCUS bill's pool rows; nil when the data has no bill.
    package var allocation: PoolAllocation?
    /// True when a journal of `respond` was read (`report --journal`): whether answers were sent is known.
    package var journalRead = false
    /// Every count the page, the console and run.json show, worked out once from the figures above.
    package var counts = FigureCounts()
    /// What answering refund requests earned, with `report --journal` (nil without).
    package var answering: AnsweringFigure?
    /// Transactions in the ledger and accounts holding them, for the page's footnote.
    package var transactionCount: Int
    package var accountCount: Int

    package init(
        ledger: Ledger, totals: AttributionTotals, window: ReportWindow, rates: ExchangeRates, credits: CreditLedger,
        draws: CreditDraws, evidence: ConsumptionEvidence = ConsumptionEvidence(), policy: ConsumptionPolicy = ConsumptionPolicy()
    ) throws {
        self.totals = totals
        trend = try TrendFigure.all(totals, window: window)
        costByDay = CostByDayFigure.all(totals)
        costRows = try CostRowFigure(totals)
        self.window = window
        asOf = ledger.options.asOf
        currency = rates.reportCurrency
        products = ProductIndex(ledger: ledger)
        transactionCount = ledger.transactions.count
        accountCount = ledger.accounts.count
        // Each kind of figure reads the ledger and the totals alone: they are worked out side by side.
        (refunds, leaks, subscriptionLosses, familyLinks, familySpend, consumption) = try Parallel.all(
            threads: FileSystem.processorCount,
            { try RefundFigure.all(ledger: ledger, totals: totals, window: window, rates: rates) },
            { LeakFigure.all(ledger: ledger, totals: totals) },
            { try SubscriptionLossFigure.all(ledger: ledger, totals: totals) },
            { FamilyLinkFigure.all(ledger: ledger) },
            { try FamilySpendFigure.all(ledger: ledger, totals: totals) },
            {
                ConsumptionFigure.all(
                    ledger: ledger, totals: totals, credits: credits, draws: draws, evidence: evidence, window: window,
                    policy: policy, rates: rates)
            })
        previousMonth = try PreviousMonthFigure.of(ledger: ledger, totals: totals, window: window, trend: trend, rates: rates)
        let rows = try SummaryFigure.perProduct(self, ledger: ledger)
        summary = rows.filter { !$0.isEmpty }
        total = try SummaryFigure.total(of: rows, totals: totals)
        counts = FigureCounts(self)
    }
}
