/// How much of the input a run counted, folder by folder (docs/domain.md rule 15).
///
/// Completeness made as provable as conservation. A file refused whole counts as all of its rows.
///
/// The console, run.json (`input_folders`) and the page say the same figures.
package struct InputCompleteness: Sendable, Hashable {
    package struct Folder: Sendable, Hashable {
        /// `costs`, `notifications`, `transactions`, or a file at the top of `--data`.
        package var name: String
        package var files = 0
        package var bytes = 0
        /// Rows (cost files, CSV inputs) or lines (JSON Lines) read or refused.
        package var rows = 0
        package var accepted = 0
        package var rejected = 0
        package var duplicates = 0
        /// What `rows` counts, for people: "rows" or "lines".
        package var unit = "rows"

        package init(name: String) { self.name = name }
    }

    package var folders: [Folder] = []
    package var rejectedRows = 0
    /// Files refused whole: none of their rows counted.
    package var wholeFiles: [Reject] = []
    /// Their sizes as stored, by the path `wholeFiles` names.
    package var wholeFileBytes: [String: Int] = [:]
    /// Inputs present that this version's reports do not read (Google Play's `play/`), said so
    /// that "everything read was counted" is never taken for everything there.
    package var notRead: [String] = []

    package init() {}

    /// True when nothing was left out.
    package var complete: Bool { rejectedRows == 0 }

    /// One line for the console and the page.
    ///
    /// `input counted: costs 3,896 of 3,900 rows (4 rejected), notifications 2,001 of 2,001 lines, ...`
    package var sentence: String {
        let parts = folders.filter { $0.rows > 0 || $0.rejected > 0 }.map { folder in
            var text =
                "\(folder.name) \(HumanText.count(folder.accepted + folder.duplicates)) of \(HumanText.count(folder.rows)) \(folder.unit)"
            var notes: [String] = []
            if folder.rejected > 0 { notes.append("\(HumanText.count(folder.rejected)) rejected") }
            if folder.duplicates > 0 { notes.append("\(HumanText.count(folder.duplicates)) duplicates") }
            if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
            return text
        }
        let verdict =
            complete
            ? "everything read was counted"
            : "\(HumanText.count(rejectedRows)) rejected \(rejectedRows == 1 ? "row" : "rows") left out"
        let unread = notRead.isEmpty ? "" : "; not read: " + notRead.joined(separator: ", ")
        return "input counted: " + parts.joined(separator: ", ") + "; " + verdict + unread
    }

    package var json: JSONValue {
        .object(
            [
                (
                    "folders",
                    .array(
                        folders.map { folder in
                            .object([
                                ("folder", .string(folder.name)), ("files", .integer(Int64(folder.files))),
                                ("bytes", .integer(Int64(folder.bytes))), ("unit", .string(folder.unit)),
                                ("read", .integer(Int64(folder.rows))), ("accepted", .integer(Int64(folder.accepted))),
                                ("rejected", .integer(Int64(folder.rejected))),
                                ("duplicates", .integer(Int64(folder.duplicates))),
                            ])
                        })
                ),
                ("rejected_rows", .integer(Int64(rejectedRows))),
                ("complete", .bool(complete)),
            ] + (notRead.isEmpty ? [] : [("not_read", .array(notRead.map(JSONValue.string)))]) + [
                (
                    "files_refused_whole",
                    .array(
                        wholeFiles.map { reject in
                            .object([
                                ("file", .string(reject.file)), ("rows", .integer(Int64(reject.rows))),
                                ("bytes", .integer(Int64(wholeFileBytes[reject.file] ?? 0))),
                                ("reason", .string(reject.reason)),
                            ])
                        })
                )
            ])
    }
}
