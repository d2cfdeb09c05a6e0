import Attribution
import Support

/// `family_links.csv`: every FAMILY_SHARED transaction and the purchase it was linked to.
enum FamilyLinksFile {
    static let file = OutputFile(
        "family_links.csv",
        [
            ("member_transaction_id", .text), ("member_account_id", .text), ("product_id", .text),
            ("purchaser_transaction_id", .text), ("link_method", .text), ("confidence", .text), ("store", .text),
        ])

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/" + Self.file.name, header: Self.file.header)
        for link in figures.familyLinks {
            file.text(link.member.id)
            file.text(link.member.account ?? "")
            file.text(link.member.productID)
            file.text(link.purchaserTransactionID ?? "")
            file.text(link.method.rawValue)
            file.text(link.method.confidence)
            file.text(link.member.store.rawValue)
            try file.endRow()
        }
        try file.commit()
    }
}
