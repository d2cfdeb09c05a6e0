import Ingest
import Ledger
import Support

/// Everything the output files and the page show, worked out once from the ledger and the
/// attribution totals: what the attribution stage hands the report stage.
///
/// Every row carries the facts it prints, so the report stage never needs the ledger. Built
/// once, with everything it shows (the bill's outcome, the journal's word): never changed after.
package struct ReportFigures: Sendable {
    package private(set) var window: ReportWindow
    /// The App Store data known at this time decided the figures (the ledger's as-of time).
    package private(set) var asOf: Timestamp
    package private(set) var currency: CurrencyCode
    package private(set) var products: ProductIndex
    /// What the figures are worked out from; the report reads the figures only.
    private(set) var totals: AttributionTotals
    /// Cost by month and class up to the window's end (`trend.csv`).
    package private(set) var trend: [TrendFigure] = []
    /// Rows and cost per day, category and class of the window (`cost_by_day.csv`).
    package private(set) var costByDay: [CostByDayFigure] = []
    /// The cost rows per input currency and around the window (the reconciliation's inputs).
    package private(set) var costRows: CostRowFigure
    package private(set) var refunds: [RefundFigure] = []
    /// Google Play orders charged back in the window (`chargebacks.csv`).
    package private(set) var chargebacks: [ChargebackFigure] = []
    /// Google Play's pending refund reviews notified in the window (`refund_reviews.csv`).
    package private(set) var refundReviews: [RefundReviewFigure] = []
    /// True when a journal of `respond --store play` was read (`report --play-journal`).
    package private(set) var playJournalRead = false
    /// What answering Google's refund reviews earned, with `report --play-journal` (nil without).
    package private(set) var playAnswering: PlayAnsweringFigure?
    /// One row per product with any figure, sorted by product id (the empty product first).
    package private(set) var summary: [SummaryFigure] = []
    /// All products together: what `totals.csv` and the page's headline show.
    package private(set) var total = SummaryFigure(product: nil)
    /// Each store's products together, then the cost tied to no product (`store_totals.csv`):
    /// they add up to `total`.
    package private(set) var storeTotals: [SummaryFigure] = []
    package private(set) var leaks: [LeakFigure] = []
    package private(set) var subscriptionLosses: [SubscriptionLossFigure] = []
    package private(set) var familyLinks: FamilyLinkFigures
    package private(set) var familySpend: [FamilySpendFigure] = []
    package private(set) var consumption: [ConsumptionFigure] = []
    /// The headline's figures for the month before the window; nil when there is none to compare with.
    package private(set) var previousMonth: PreviousMonthFigure?
    /// What became of a FOCUS bill's pool rows; nil when the data has no bill.
    package private(set) var allocation: PoolAllocation?
    /// True when a journal of `respond` was read (`report --journal`): whether answers were sent is known.
    package private(set) var journalRead = false
    /// Every count the page, the console and run.json show, worked out once from the figures above.
    package private(set) var counts = FigureCounts()
    /// What answering refund requests earned, with `report --journal` (nil without).
    package private(set) var answering: AnsweringFigure?
    /// Transactions in the ledger and accounts holding them, for the page's footnote.
    package private(set) var transactionCount: Int
    package private(set) var accountCount: Int

    package init(
        ledger: Ledger, totals: AttributionTotals, window: ReportWindow, rates: ExchangeRates, credits: CreditLedger,
        draws: CreditDraws, evidence: ConsumptionEvidence = ConsumptionEvidence(),
        policy: ConsumptionPolicy = ConsumptionPolicy(), chargebackFee: Money = .zero,
        allocation: PoolAllocation? = nil, journal: [String: JournalEntry]? = nil, journalBegins: Timestamp? = nil,
        playJournal: [String: JournalEntry]? = nil, playJournalBegins: Timestamp? = nil
    ) throws {
        self.allocation = allocation
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
        familyLinks = FamilyLinkFigures(ledger: ledger)
        // Each kind of figure reads the ledger and the totals alone: they are worked out side by side.
        (refunds, leaks, subscriptionLosses, familySpend, consumption) = try Parallel.all(
            threads: FileSystem.processorCount,
            { try RefundFigure.all(ledger: ledger, totals: totals, window: window, rates: rates) },
            { LeakFigure.all(ledger: ledger, totals: totals) },
            { try SubscriptionLossFigure.all(ledger: ledger, totals: totals) },
            { try FamilySpendFigure.all(ledger: ledger, totals: totals) },
            {
                ConsumptionFigure.all(
                    ledger: ledger, totals: totals, credits: credits, draws: draws, evidence: evidence, window: window,
                    policy: policy, rates: rates)
            })
        if let journal {
            // What respond did about each request, and what its answers earned (`report --journal`).
            for index in consumption.indices {
                consumption[index].answered = ConsumptionAnswered(
                    journal[consumption[index].notificationUUID], respondBy: consumption[index].respondBy,
                    journalBegins: journalBegins)
            }
            journalRead = true
            answering = try AnsweringFigure(consumption)
        }
        chargebacks = try ChargebackFigure.all(ledger: ledger, totals: totals, window: window, rates: rates, fee: chargebackFee)
        refundReviews = try RefundReviewFigure.all(
            ledger: ledger, window: window, rates: rates, journal: playJournal, journalBegins: playJournalBegins)
        if playJournal != nil {
            playJournalRead = true
            playAnswering = try PlayAnsweringFigure(refundReviews)
        }
        previousMonth = try PreviousMonthFigure.of(ledger: ledger, totals: totals, window: window, trend: trend, rates: rates)
        let rows = try SummaryFigure.perProduct(self, ledger: ledger)
        summary = rows.filter { !$0.isEmpty }
        total = try SummaryFigure.total(of: rows, totals: totals)
        storeTotals = try SummaryFigure.byStore(rows, totals: totals)
        counts = FigureCounts(self)
    }
}
