import Attribution
import Support

/// `family_spend.csv`: what each person of a family purchase cost in the window, the
/// purchaser included; members linked to no purchase under an empty purchaser id.
enum FamilySpendFile {
    static let header = [
        "purchaser_transaction_id", "product_id", "role", "account_id", "transaction_id", "link_method", "cost_entitled",
        "cost_after_end", "cost_total", "currency",
    ]

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/family_spend.csv", header: header)
        for person in figures.familySpend {
            file.text(person.purchaserTransactionID)
            file.text(person.productID)
            file.text(person.role.rawValue)
            file.text(person.account ?? "")
            file.text(person.transactionID)
            file.text(person.linkMethods.map(\.rawValue).joined(separator: ";"))
            file.money(person.costEntitled)
            file.money(person.costAfterEnd)
            file.money(try person.costTotal())
            file.text(figures.currency.description)
            try file.endRow()
        }
        try file.commit()
    }
}
