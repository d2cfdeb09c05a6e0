/// `refunds.csv`: each refunded PURCHASED transaction of the window and what it really cost.
enum RefundsFile {
    static let header = [
        "transaction_id", "original_transaction_id", "product_id", "product_type", "account_id", "purchase_date",
        "revocation_date", "revocation_kind", "revocation_reason", "revocation_percentage", "price", "price_currency",
        "refunded_amount", "family_members", "family_link_method", "cost_purchaser", "cost_family", "cost_after_revocation",
        "sunk_cost", "currency",
    ]

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let ledger = figures.ledger
        let file = try CSVFileWriter(path: folder + "/refunds.csv", header: header)
        for refund in figures.refunds {
            let transaction = ledger.transactions[refund.transaction]
            let record = transaction.record
            file.text(record.transactionID)
            file.text(record.originalTransactionID)
            file.text(record.productID)
            file.text(transaction.type?.rawValue ?? record.rawType ?? "")
            file.text(transaction.account.map { ledger.accounts[$0] } ?? "")
            file.timestamp(record.purchaseDate)
            file.timestamp(record.revocationDate)
            file.text(refund.kind.rawValue)
            file.text(record.revocationReason.map { $0 == 1 ? "app_issue" : "other" } ?? "")
            if refund.kind == .refundProrated, let percentage = record.revocationPercentage {
                file.integer(percentage)
            } else {
                file.empty()
            }
            if let price = refund.price { file.money(price) } else { file.empty() }
            file.text(refund.priceCurrency ?? "")
            if let amount = refund.refundedAmount { file.money(amount) } else { file.empty() }
            file.integer(refund.members.count)
            file.text(refund.linkMethods)
            file.money(refund.costPurchaser)
            file.money(refund.costFamily)
            file.money(refund.costAfterRevocation)
            file.money(refund.sunkCost)
            file.text(figures.currency.description)
            try file.endRow()
        }
        try file.commit()
    }
}
