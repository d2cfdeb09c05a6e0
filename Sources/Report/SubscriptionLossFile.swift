import Attribution
import Support

/// `subscription_loss.csv`: leaked auto-renewable access and what it costs per period.
enum SubscriptionLossFile {
    static let header = [
        "account_id", "original_transaction_id", "product_id", "ownership", "period", "access_end", "leaked_periods",
        "leaked_cost", "cost_per_period", "still_leaking", "run_rate_30d", "currency", "billing_grace_cost",
    ]

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/subscription_loss.csv", header: header)
        for loss in figures.subscriptionLosses {
            let transaction = loss.transaction
            file.text(loss.account)
            file.text(transaction.originalID)
            file.text(transaction.productID)
            file.text(transaction.ownershipName)
            file.text(loss.period.iso)
            file.timestamp(transaction.end?.at)
            file.integer(loss.leakedPeriods)
            file.money(loss.leakedCost)
            file.money(loss.costPerPeriod)
            file.bool(loss.stillLeaking)
            file.money(loss.runRate30Days)
            file.text(figures.currency.description)
            file.money(loss.billingGraceCost)
            try file.endRow()
        }
        try file.commit()
    }
}
