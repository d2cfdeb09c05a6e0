/// Every table of the page, made readable on a phone: each cell is given its column's heading
/// (`data-label`), so that a narrow screen shows each row as a card of "heading: value" lines
/// (the page's CSS), and no amount hides past the right edge of a scrolling box.
///
/// The sections write tables with their heading row first; this reads those headings and
/// labels the cells of the rows after them, by position.
enum TableRows {
    static func labelled(_ page: String) -> String {
        var out = ""
        var rest = Substring(page)
        while let open = rest.firstRange(of: "<table>") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "</table>") else {
                rest = rest[open.lowerBound...]
                break
            }
            out += "<table class=\"rows\">" + labelledRows(rest[open.upperBound..<close.lowerBound]) + "</table>"
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// The rows of one table, each cell after the heading row labelled with its heading.
    private static func labelledRows(_ table: Substring) -> String {
        let rows = table.split(separator: "<tr", omittingEmptySubsequences: false)
        guard rows.count > 2 else { return String(table) }
        let headings = headings(of: rows[1])
        var out = String(rows[0]) + "<tr" + rows[1]
        for row in rows.dropFirst(2) {
            var position = 0
            var rest = row
            out += "<tr"
            while let cell = nextCell(in: rest) {
                out += rest[..<cell.upperBound]
                if position < headings.count, !headings[position].isEmpty {
                    out += " data-label=\"\(headings[position])\""
                }
                position += 1
                rest = rest[cell.upperBound...]
            }
            out += rest
        }
        return out
    }

    /// Where the next `<td` or `<th` opening is (its name only, so attributes can follow).
    private static func nextCell(in text: Substring) -> Range<Substring.Index>? {
        let found = [text.firstRange(of: "<td"), text.firstRange(of: "<th")].compactMap { $0 }
        return found.min { $0.lowerBound < $1.lowerBound }
    }

    /// The text of each heading of a heading row, tags left out (already escaped for HTML, so
    /// fit for an attribute once its quotes are).
    private static func headings(of row: Substring) -> [String] {
        row.split(separator: "<th", omittingEmptySubsequences: false).dropFirst().map { cell in
            let inner = cell.split(separator: "</th>", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            var text = ""
            var inTag = true  // The cell starts inside its own opening tag.
            for character in inner {
                if character == "<" {
                    inTag = true
                } else if character == ">" {
                    inTag = false
                } else if !inTag {
                    text += character == "\"" ? "&quot;" : String(character)
                }
            }
            return text
        }
    }
}
