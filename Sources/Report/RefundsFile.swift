import Attribution
import Support

/// `refunds.csv`: each refunded PURCHASED transaction of the window and what it really cost.
enum RefundsFile {
    static let file = OutputFile(
        "refunds.csv",
        [
            ("transaction_id", .text), ("original_transaction_id", .text), ("product_id", .text), ("product_type", .text),
            ("account_id", .text), ("purchase_date", .timestamp), ("revocation_date", .timestamp), ("revocation_kind", .text),
            ("revocation_reason", .text), ("revocation_percentage", .count), ("price", .money), ("price_currency", .text),
            ("refunded_amount", .money), ("family_members", .count), ("family_link_method", .text), ("cost_purchaser", .money),
            ("cost_family", .money), ("cost_after_revocation", .money), ("sunk_cost", .money), ("currency", .text),
            ("refunded_amount_converted", .money), ("store", .text),
        ])

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/" + Self.file.name, header: Self.file.header)
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
            file.text(refund.reason)
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
            file.text(transaction.store.rawValue)
            try file.endRow()
        }
        try file.commit()
    }
}
