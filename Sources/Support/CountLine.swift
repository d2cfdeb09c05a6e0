/// One count a run reports, described once: the key run.json keeps it under, the words a person
/// reads it by, and its value.
///
/// run.json, `validate` and the page all render the same lines, so a
/// count added here shows up in each of them, with the same meaning.
package struct CountLine: Sendable, Hashable {
    package enum Value: Sendable, Hashable {
        case count(Int)
        /// Counts by name (notification type, environment), in name order; `listed`: a line
        /// each for a person, else one line of `name count, ...`.
        case breakdown([String: Int], listed: Bool)
        /// Lines that belong together (an object in run.json).
        case group([CountLine])
    }

    package var key: String
    package var label: String
    package var value: Value
    /// A person is not shown a zero here (a kind of data most folders never hold); run.json
    /// always has it.
    package var hiddenWhenZero: Bool

    package init(_ key: String, _ label: String, _ value: Value, hiddenWhenZero: Bool = false) {
        self.key = key
        self.label = label
        self.value = value
        self.hiddenWhenZero = hiddenWhenZero
    }

    package init(_ key: String, _ label: String, _ count: Int, hiddenWhenZero: Bool = false) {
        self.init(key, label, .count(count), hiddenWhenZero: hiddenWhenZero)
    }

    /// The members of a run.json object, one per line, in order.
    package static func json(_ lines: [CountLine]) -> [(String, JSONValue)] {
        lines.map { ($0.key, $0.json) }
    }

    package var json: JSONValue {
        switch value {
        case .count(let count): .integer(Int64(count))
        case .breakdown(let counts, _): .object(counts.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })
        case .group(let lines): .object(Self.json(lines))
        }
    }

    /// What a person reads: a label and a value a row, a listed breakdown's label then its names
    /// indented under it, a group's lines in place.
    package static func rows(_ lines: [CountLine]) -> [(label: String, value: String)] {
        var rows: [(label: String, value: String)] = []
        for line in lines {
            switch line.value {
            case .count(let count):
                if count != 0 || !line.hiddenWhenZero { rows.append((line.label, HumanText.count(count))) }
            case .breakdown(let counts, let listed):
                let sorted = counts.sorted { $0.key < $1.key }
                if listed {
                    if !sorted.isEmpty { rows.append((line.label, "")) }
                    rows += sorted.map { ("  " + $0.key, HumanText.count($0.value)) }
                } else {
                    let text = sorted.map { "\($0.key) \(HumanText.count($0.value))" }.joined(separator: ", ")
                    rows.append((line.label, text.isEmpty ? "none" : text))
                }
            case .group(let members):
                rows += Self.rows(members)
            }
        }
        return rows
    }
}
