import Attribution
import Support

/// `leaks.csv`: per account and ended transaction, cost after the access ended, split by
/// whether the server could have known (notice) and how long it had (grace).
enum LeaksFile {
    static let header = [
        "account_id", "transaction_id", "original_transaction_id", "product_id", "ownership", "end_kind", "access_end",
        "notified_at", "cost_before_notice", "cost_within_grace", "cost_beyond_grace", "first_cost_at", "last_cost_at",
        "currency",
    ]

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/leaks.csv", header: header)
        for leak in figures.leaks {
            let transaction = leak.transaction
            file.text(leak.account)
            file.text(transaction.id)
            file.text(transaction.originalID)
            file.text(transaction.productID)
            file.text(transaction.ownershipName)
            file.text(transaction.endKind.rawValue)
            file.timestamp(transaction.end?.at)
            file.timestamp(transaction.end?.noticedAt)
            for phase in LeakPhase.allCases { file.money(leak.cell.byPhase[phase.rawValue]) }
            file.timestamp(leak.cell.first)
            file.timestamp(leak.cell.last)
            file.text(figures.currency.description)
            try file.endRow()
        }
        try file.commit()
    }
}
