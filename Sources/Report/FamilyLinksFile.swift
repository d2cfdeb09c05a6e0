import Attribution
import Support

/// `family_links.csv`: every FAMILY_SHARED transaction and the purchase it was linked to.
enum FamilyLinksFile {
    static let header = [
        "member_transaction_id", "member_account_id", "product_id", "purchaser_transaction_id", "link_method", "confidence",
    ]

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/family_links.csv", header: header)
        for link in figures.familyLinks {
            file.text(link.member.id)
            file.text(link.member.account ?? "")
            file.text(link.member.productID)
            file.text(link.purchaserTransactionID ?? "")
            file.text(link.method.rawValue)
            file.text(link.method.confidence)
            try file.endRow()
        }
        try file.commit()
    }
}
