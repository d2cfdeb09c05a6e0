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

    /// What a message shows in place of a value that may hold a password.
    package static let notShown = "(not shown: it may hold a password)"

    /// `text` as a message may quote it, or `notShown` when it looks like it holds a secret:
    /// credentials in a URL (`scheme://user:secret@host`) or a `password=` of any case.
    package static func unlessSecret(_ text: String) -> String {
        let lower = Array(text.lowercased().utf8)
        func contains(_ word: String, from start: Int = 0) -> Int? {
            let needle = Array(word.utf8)
            guard lower.count >= needle.count + start else { return nil }
            return (start...(lower.count - needle.count)).first { lower[$0..<$0 + needle.count].elementsEqual(needle) }
        }
        let credentials = contains("://").map { contains("@", from: $0) != nil } ?? false
        return credentials || contains("password") != nil || contains("passwd") != nil ? notShown : text
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
