/// The access timeline every cost row is classified by, as CSV: for audits, and for checking
/// the attribution against an independent implementation (the benchmark's SQL baseline).
///
/// One row per account and segment: from `start_ms` until the account's next segment, a cost
/// row of the account gets `class`, tied to `product_id`. Each account starts with a segment
/// from the beginning of time (`unentitled`); accounts not listed are `unlinked`.
/// Credit-metered rows (rule 7) are settled separately and are not described here.
package enum AccessExport {
    package static let header = ["account_id", "start_ms", "class", "product_id"]

    package static func write(_ ledger: Ledger, to path: String) throws {
        let file = try CSVFileWriter(path: path, header: header)
        let classifier = Classifier(ledger: ledger, grace: .hours(1))
        for (index, account) in ledger.accounts.enumerated() {
            file.text(account)
            file.integer(Int(Int64.min / 2))
            file.text(CostClass.unentitled.reportName)
            file.empty()
            try file.endRow()
            for (start, _) in ledger.timelines.segments(account: index) {
                let decided = classifier.classify(account: Int32(index), at: start)
                file.text(account)
                file.integer(Int(start.milliseconds))
                file.text(decided.costClass.reportName)
                file.text(decided.transaction >= 0 ? ledger.transactions[Int(decided.transaction)].record.productID : "")
                try file.endRow()
            }
        }
        try file.commit()
    }
}
