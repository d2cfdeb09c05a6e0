import Attribution
import Support

/// `leaks.csv`: per account and ended transaction, cost after the access ended, split by
/// whether the server could have known (notice) and how long it had (grace).
enum LeaksFile {
    static let file = OutputFile(
        "leaks.csv",
        [
            ("account_id", .text), ("transaction_id", .text), ("original_transaction_id", .text), ("product_id", .text),
            ("ownership", .text), ("end_kind", .text), ("access_end", .timestamp), ("notified_at", .timestamp),
            ("cost_before_notice", .money), ("cost_within_grace", .money), ("cost_beyond_grace", .money),
            ("first_cost_at", .timestamp), ("last_cost_at", .timestamp), ("currency", .text), ("store", .text),
        ])

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/" + Self.file.name, header: Self.file.header)
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
            file.text(transaction.store.rawValue)
            try file.endRow()
        }
        try file.commit()
    }
}
