import Attribution
import Support

/// `summary.csv`: one row per product with any figure, sorted by product id then store (a
/// dashboard sums it); `totals.csv`: the same columns but `product_id` and `store`, one row for
/// all products; `store_totals.csv`: the same columns but `product_id`, one row a store and
/// one for the cost tied to no product, adding up to `totals.csv`.
enum SummaryFile {
    static let file = OutputFile(
        "summary.csv",
        [("period_start", .date), ("period_end", .date), ("as_of", .timestamp), ("product_id", .text), ("currency", .text)]
            + [
                "cost_total", "cost_paid", "cost_family_shared", "cost_premature", "cost_after_refund", "cost_after_family_exit",
                "cost_after_expiry", "cost_unentitled", "cost_unlinked", "leaked_cost", "leaked_cost_beyond_grace",
            ].map { ($0, .money) }
            + ["leaked_accounts", "refunds", "refunds_prorated", "refund_reversals", "family_refunds", "family_exits"].map {
                ($0, .count)
            }
            + [
                ("refunded_amount", .money), ("refund_sunk_cost", .money), ("recurring_loss_run_rate", .money),
                ("consumption_requests", .count), ("consumption_granted", .count), ("consumption_declined", .count),
                ("cost_billing_grace", .money), ("paid_transactions", .count), ("refund_rate", .rate),
                ("cost_unknown_ownership", .money), ("chargebacks", .count), ("chargebacks_lost", .money), ("store", .text),
            ])
    /// `totals.csv`: the same columns but `product_id` and `store`.
    static let totals = file.named("totals.csv", without: ["product_id", "store"])
    /// `store_totals.csv`: the same columns but `product_id`.
    static let storeTotals = file.named("store_totals.csv", without: ["product_id"], addedIn: "0.16.0")

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let summary = try CSVFileWriter(path: folder + "/" + file.name, header: file.header)
        for row in figures.summary { try write(row, of: figures, to: summary) }
        try summary.commit()
        let totals = try CSVFileWriter(path: folder + "/" + Self.totals.name, header: Self.totals.header)
        try write(figures.total, of: figures, to: totals, store: false)
        try totals.commit()
        let stores = try CSVFileWriter(path: folder + "/" + storeTotals.name, header: storeTotals.header)
        for row in figures.storeTotals { try write(row, of: figures, to: stores) }
        try stores.commit()
    }

    /// One row; `product_id` only for a product row, `store` unless the file is `totals.csv`.
    private static func write(_ row: SummaryFigure, of figures: ReportFigures, to file: CSVFileWriter, store: Bool = true)
        throws
    {
        file.date(figures.window.start.civilDate)
        file.date(figures.window.end.civilDate)
        file.timestamp(figures.asOf)
        if let product = row.product { file.text(product) }
        file.text(figures.currency.description)
        file.money(try row.classes.total())
        for costClass in CostClass.firstColumns { file.money(row.classes[costClass]) }
        file.money(try row.leakedCost())
        file.money(row.leakedBeyondGrace)
        file.integer(row.leakedAccounts)
        file.integer(row.refunds)
        file.integer(row.refundsProrated)
        file.integer(row.refundReversals)
        file.integer(row.familyRefunds)
        file.integer(row.familyExits)
        file.money(row.refundedAmount)
        file.money(row.refundSunkCost)
        file.money(row.recurringLossRunRate)
        file.integer(row.consumptionRequests)
        file.integer(row.consumptionGranted)
        file.integer(row.consumptionDeclined)
        file.money(row.classes[.billingGrace])
        file.integer(row.paidTransactions)
        file.text(row.refundRateTenThousandths.map(fourDecimals) ?? "")
        file.money(row.classes[.unknownOwnership])
        file.integer(row.chargebacks)
        file.money(row.chargebacksLost)
        if store { file.text(row.store?.rawValue ?? "") }
        try file.endRow()
    }

    /// `0.1234` from ten-thousandths.
    static func fourDecimals(_ tenThousandths: Int) -> String {
        let fraction = String(tenThousandths % 10_000)
        return "\(tenThousandths / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }
}
