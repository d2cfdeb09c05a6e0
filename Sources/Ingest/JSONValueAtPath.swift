import Support

/// What a rejected JSON line holds at the field a reason names, for the reject's value: the
/// field itself, never the whole line.
enum JSONValueAtPath {
    /// The value at `path` of `line`: a string without its quotes, anything else as written.
    ///
    /// A path is `signedPayload`, `data.signedTransactionInfo`,
    /// `notificationHistory[1].signedPayload`. Where it goes inside a signed payload (a JWS
    /// string), the JWS; "" when the line does not hold the path at all.
    static func text(in line: UnsafeRawBufferPointer, path: String) -> String {
        guard !path.isEmpty else { return "" }
        var steps: [Step] = []
        for component in path.split(separator: ".") {
            let name = component.prefix { $0 != "[" }
            if !name.isEmpty { steps.append(.member(Array(name.utf8))) }
            var rest = component.dropFirst(name.count)
            while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                guard let index = Int(rest[rest.index(after: rest.startIndex)..<close]) else { return "" }
                steps.append(.element(index))
                rest = rest[rest.index(after: close)...]
            }
        }
        var cursor = JSONCursor(line)
        return (try? value(&cursor, steps[...])) ?? ""
    }

    private enum Step {
        case member([UInt8])
        case element(Int)
    }

    private static func value(_ cursor: inout JSONCursor, _ steps: ArraySlice<Step>) throws -> String {
        guard let step = steps.first else { return try shown(&cursor) }
        switch step {
        case .member(let name) where cursor.isObject():
            var found: String?
            try cursor.members { cursor, key in
                if found == nil, key.bytes.elementsEqual(name) {
                    found = try value(&cursor, steps.dropFirst())
                } else {
                    try cursor.skip()
                }
            }
            return found ?? ""
        case .element(let wanted) where !cursor.isString() && !cursor.isObject():
            var found: String?
            try cursor.elements { cursor, index in
                if index == wanted { found = try value(&cursor, steps.dropFirst()) } else { try cursor.skip() }
            }
            return found ?? ""
        default:
            // The path goes on inside a value that is not an object or array: a signed payload.
            return try shown(&cursor)
        }
    }

    private static func shown(_ cursor: inout JSONCursor) throws -> String {
        var copy = cursor
        if cursor.isString(), let text = try? copy.string() {
            cursor = copy
            return text
        }
        return String(decoding: try cursor.valueBytes(), as: UTF8.self)
    }
}
