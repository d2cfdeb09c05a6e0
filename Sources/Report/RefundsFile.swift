import Attribution
import Support

/// `refunds.csv`: each refunded PURCHASED transaction of the window and what it really cost.
enum RefundsFile {
    static let header = [
        "transaction_id", "original_transaction_id", "product_id", "product_type", "account_id", "purchase_date",
        "revocation_date", "revocation_kind", "revocation_reason", "revocation_percentage", "price", "price_currency",
        "refunded_amount", "family_members", "family_link_method", "cost_purchaser", "cost_family", "cost_after_revocation",
        "sunk_cost", "currency", "refunded_amount_converted",
    ]

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/refunds.csv", header: header)
        for refund in figures.refunds {
            let transaction = refund.transaction
            file.text(transaction.id)
            file.text(transaction.originalID)
            file.text(transaction.productID)
            file.text(transaction.productType)
            file.text(transaction.account ?? "")
            file.timestamp(transaction.purchaseDate)
            file.timestamp(transaction.revocationDate)
            file.text(refund.kind.rawValue)
            file.text(transaction.revocationReason?.reportName ?? "")
            if refund.kind == .refundProrated, let percentage = transaction.revocationPercentage {
                file.integer(percentage)
            } else {
                file.empty()
            }
            if let price = refund.price { file.money(price) } else { file.empty() }
            file.text(refund.priceCurrency ?? "")
            if let amount = refund.refundedAmount { file.money(amount) } else { file.empty() }
            file.integer(refund.familyMembers)
            file.text(refund.linkMethods.map(\.rawValue).joined(separator: ";"))
            file.money(refund.costPurchaser)
            file.money(refund.costFamily)
            file.money(refund.costAfterRevocation)
            file.money(refund.sunkCost)
            file.text(figures.currency.description)
            if let converted = refund.refundedInReportCurrency { file.money(converted) } else { file.empty() }
            try file.endRow()
        }
        try file.commit()
    }
}
