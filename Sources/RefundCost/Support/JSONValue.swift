/// A JSON value with object keys in a fixed order, printed the same way every time: for
/// `run.json` and the consumption-response bodies.
package indirect enum JSONValue: Sendable, Hashable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case integer(Int64)
    /// A number already spelled out (money with its decimals, a rate).
    case number(String)
    case bool(Bool)
    case null

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.compact == rhs.compact }
    package func hash(into hasher: inout Hasher) { hasher.combine(compact) }

    /// On one line, no spaces: the form an API body takes.
    package var compact: String {
        var bytes: [UInt8] = []
        write(to: &bytes, indent: nil, depth: 0)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Two-space indentation, one member a line: the form a person reads.
    package var pretty: String {
        var bytes: [UInt8] = []
        write(to: &bytes, indent: 2, depth: 0)
        bytes.append(UInt8(ascii: "\n"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private func write(to bytes: inout [UInt8], indent: Int?, depth: Int) {
        func newline(_ level: Int) {
            guard let indent else { return }
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: [UInt8](repeating: UInt8(ascii: " "), count: indent * level))
        }
        switch self {
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                JSONObjectWriter.appendString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                if indent != nil { bytes.append(UInt8(ascii: " ")) }
                value.write(to: &bytes, indent: indent, depth: depth + 1)
            }
            if !members.isEmpty { newline(depth) }
            bytes.append(UInt8(ascii: "}"))
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                value.write(to: &bytes, indent: indent, depth: depth + 1)
            }
            if !values.isEmpty { newline(depth) }
            bytes.append(UInt8(ascii: "]"))
        case .string(let text): JSONObjectWriter.appendString(text, to: &bytes)
        case .integer(let value): bytes.append(contentsOf: String(value).utf8)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        }
    }
}
