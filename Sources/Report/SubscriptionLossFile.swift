import Attribution
import Support

/// `subscription_loss.csv`: leaked auto-renewable access and what it costs per period.
enum SubscriptionLossFile {
    static let file = OutputFile(
        "subscription_loss.csv",
        [
            ("account_id", .text), ("original_transaction_id", .text), ("product_id", .text), ("ownership", .text),
            ("period", .text), ("access_end", .timestamp), ("leaked_periods", .count), ("leaked_cost", .money),
            ("cost_per_period", .money), ("still_leaking", .boolean), ("run_rate_30d", .money), ("currency", .text),
            ("billing_grace_cost", .money), ("store", .text),
        ])

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/" + Self.file.name, header: Self.file.header)
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
            file.text(transaction.store.rawValue)
            try file.endRow()
        }
        try file.commit()
    }
}
