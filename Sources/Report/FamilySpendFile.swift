import Attribution
import Support

/// `family_spend.csv`: what each person of a family purchase cost in the window, the
/// purchaser included; members linked to no purchase under an empty purchaser id.
enum FamilySpendFile {
    static let file = OutputFile(
        "family_spend.csv",
        [
            ("purchaser_transaction_id", .text), ("product_id", .text), ("role", .text), ("account_id", .text),
            ("transaction_id", .text), ("link_method", .text), ("cost_entitled", .money), ("cost_after_end", .money),
            ("cost_total", .money), ("currency", .text), ("store", .text),
        ])

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/" + Self.file.name, header: Self.file.header)
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
            // Only the App Store shares a purchase with a family.
            file.text(Store.appStore.rawValue)
            try file.endRow()
        }
        try file.commit()
    }
}
