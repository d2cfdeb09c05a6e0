/// Text for people (terminal and page), never for the CSV files.
package enum HumanText {
    /// `1,234,567`: digits grouped by thousands.
    package static func grouped(_ digits: Substring) -> String {
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return grouped
    }

    package static func count(_ value: Int) -> String {
        (value < 0 ? "-" : "") + grouped(Substring(String(value.magnitude)))
    }

    /// `path` relative to `root` when it lies inside it (for messages and run.json).
    package static func relative(_ path: String, to root: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }
}

extension String {
    package func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
