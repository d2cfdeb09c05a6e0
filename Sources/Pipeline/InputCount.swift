import Ingest
import Support

/// Counts every folder of `--data` after a reading.
///
/// Rows read, accepted, rejected (a file refused whole weighing all its rows), duplicates; one place, for report, merge and the page.
enum InputCount {
    static func completeness(
        layout: InputLayout, counts: AppStoreCounts, summaries: [CostFileSummary], rejects: RejectTally
    ) -> InputCompleteness {
        let root = layout.root
        func bytes(_ paths: [String]) -> Int { paths.reduce(0) { $0 + (FileSystem.fileSize($1) ?? 0) } }
        func rejected(_ folder: String) -> Int { rejects.rows(in: [folder]) }
        func wholeRows(_ folder: String) -> Int {
            rejects.wholeFiles.filter { $0.folder == folder }.reduce(0) { $0 + $1.rows }
        }

        var costs = InputCompleteness.Folder(name: "costs")
        costs.files = layout.costFiles.count
        costs.bytes = summaries.reduce(0) { $0 + $1.bytes }
        costs.accepted = summaries.reduce(0) { $0 + $1.accepted }
        costs.duplicates = summaries.reduce(0) { $0 + $1.duplicates }
        costs.rejected = rejected("costs")
        costs.rows = summaries.reduce(0) { $0 + $1.rows } + wholeRows("costs")

        // The App Store folders count lines: one line may hold a page of many records.
        func lines(_ name: String, _ files: [String], read: Int) -> InputCompleteness.Folder {
            var folder = InputCompleteness.Folder(name: name)
            folder.unit = "lines"
            folder.files = files.count
            folder.bytes = bytes(files)
            folder.rejected = rejected(name)
            folder.rows = read + wholeRows(name)
            folder.accepted = max(0, folder.rows - folder.rejected)
            return folder
        }

        var completeness = InputCompleteness()
        completeness.folders = [
            costs, lines("notifications", layout.notificationFiles, read: counts.notificationLines),
            lines("transactions", layout.transactionFiles, read: counts.historyLines),
        ]
        for path in [layout.accounts, layout.products, layout.exchangeRates, layout.consent, layout.deliveries] {
            guard let path else { continue }
            var file = InputCompleteness.Folder(name: HumanText.relative(path, to: root))
            file.files = 1
            file.bytes = FileSystem.fileSize(path) ?? 0
            file.rejected = rejected(Reject(file: path, line: 0, field: "", value: "", reason: "").folder)
            file.rows = FileRowCount.dataRows(path, headerLines: 1)
            file.accepted = max(0, file.rows - file.rejected)
            completeness.folders.append(file)
        }
        // Google Play's folders, when there is one: records, since a line may hold a page of
        // voids or orders and each is accepted or rejected alone.
        if !layout.play.isEmpty {
            func records(_ name: String, _ files: [String], read: Int, duplicates: Int) -> InputCompleteness.Folder {
                var folder = lines(name, files, read: read)
                folder.unit = "records"
                folder.duplicates = duplicates
                return folder
            }
            let read = counts.play?.records
            let copies = counts.play?.duplicates
            completeness.folders += [
                records(
                    "play/notifications", layout.play.notifications, read: read?.notifications ?? 0,
                    duplicates: copies?.notifications ?? 0),
                records("play/voided", layout.play.voided, read: read?.voided ?? 0, duplicates: copies?.voided ?? 0),
                records("play/orders", layout.play.orders, read: read?.orders ?? 0, duplicates: copies?.orders ?? 0),
                records("play/purchases", layout.play.purchases, read: read?.purchases ?? 0, duplicates: copies?.purchases ?? 0),
            ]
        }
        completeness.rejectedRows = rejects.rows
        for reject in rejects.wholeFiles {
            var shown = reject
            shown.file = HumanText.relative(reject.file, to: root)
            completeness.wholeFiles.append(shown)
            completeness.wholeFileBytes[shown.file] = FileSystem.fileSize(reject.file) ?? 0
        }
        return completeness
    }
}
