/// One input line that was refused, with everything a person needs to find and fix it.
package struct Reject: Sendable, Hashable, CustomStringConvertible, Codable {
    package var file: String
    package var line: Int
    package var field: String
    package var value: String
    package var reason: String
    /// How many input rows this reject stands for: 1 for a line, every data row of a file
    /// refused whole (its header cannot be read, it cannot be decompressed), so a refused file
    /// weighs what it would have counted.
    package var rows: Int
    /// The whole file was refused: none of its rows were read.
    package var wholeFile: Bool

    package init(file: String, line: Int, field: String, value: String, reason: String, rows: Int = 1, wholeFile: Bool = false) {
        self.file = file
        self.line = line
        self.field = field
        self.value = value
        self.reason = reason
        self.rows = rows
        self.wholeFile = wholeFile
    }

    /// The input folder the file lies in (`notifications`, `transactions`, `costs`), or the
    /// file's own name for the files at the top of `--data` (`accounts.csv`, ...).
    package var folder: String {
        let parts = file.split(separator: "/", omittingEmptySubsequences: true)
        if parts.count >= 3, parts[parts.count - 3] == "play",
            ["notifications", "voided", "orders", "purchases"].contains(parts[parts.count - 2])
        {
            return "play/" + parts[parts.count - 2]
        }
        if parts.count >= 2, ["notifications", "transactions", "costs"].contains(parts[parts.count - 2]) {
            return String(parts[parts.count - 2])
        }
        return parts.last.map(String.init) ?? file
    }

    /// The same reject, standing for every data row of its file (`rows` of them).
    package func refusingFile(rows: Int) -> Reject {
        var whole = self
        whole.rows = rows
        whole.wholeFile = true
        return whole
    }

    /// `path:line: error: cost "12,5": reason`, the form compilers use, so editors jump to it.
    package var diagnostic: Diagnostic {
        let shownField = Self.printable(Self.cut(field))
        return Diagnostic(
            field.isEmpty ? reason : "\(shownField) \"\(Self.printable(Self.cut(value)))\": \(reason)", file: file, line: line)
    }

    /// `text` with each control character written as an escape (`\n`, `\u{1B}`): a value from an
    /// input never starts a line of its own on a terminal, or moves its cursor.
    package static func printable(_ text: String) -> String {
        guard !isPrintable(text) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            case _ where isControl(scalar): shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// True when `text` holds nothing `printable` would escape: it shows as it is.
    package static func isPrintable(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: isControl)
    }

    /// A control character, or one that turns text around or breaks it on a terminal (the
    /// bidirectional marks, embeddings, overrides and isolates, the line and paragraph
    /// separators, the byte order mark).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x061C || (0x200E...0x200F).contains(value)
            || (0x2028...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0xFEFF
    }

    /// The most of a value a reject quotes.
    static let longestValue = 80

    /// `value` cut to `longestValue` characters, `...` saying where it was cut.
    package static func cut(_ value: String) -> String {
        value.count > longestValue ? String(value.prefix(longestValue - 3)) + "..." : value
    }

    package var description: String { diagnostic.description }

    /// `rows` was added after the first five: columns are only ever added at the end.
    package static let csvHeader = ["file", "line", "field", "value", "reason", "rows"]
}
