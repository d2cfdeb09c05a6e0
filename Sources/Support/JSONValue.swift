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
                JSONValue.appendString(key, to: &bytes)
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
        case .string(let text): JSONValue.appendString(text, to: &bytes)
        case .integer(let value): bytes.append(contentsOf: String(value).utf8)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        }
    }
}

extension JSONValue {
    /// Appends `value` as a JSON string, quoted and escaped.
    static func appendString(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: Array("\\\"".utf8))
            case UInt8(ascii: "\\"): bytes.append(contentsOf: Array("\\\\".utf8))
            case 0x0A: bytes.append(contentsOf: Array("\\n".utf8))
            case 0x0D: bytes.append(contentsOf: Array("\\r".utf8))
            case 0x09: bytes.append(contentsOf: Array("\\t".utf8))
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 15)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// Builds a JSON object member by member, keys in the order given; a nil value leaves its
/// member out, as Apple's payloads do.
package struct JSONObjectBuilder {
    private var members: [(String, JSONValue)] = []

    package init() {}

    package mutating func string(_ key: String, _ value: String?) {
        if let value { members.append((key, .string(value))) }
    }

    package mutating func integer(_ key: String, _ value: Int64?) {
        if let value { members.append((key, .integer(value))) }
    }

    package mutating func bool(_ key: String, _ value: Bool) {
        members.append((key, .bool(value)))
    }

    package mutating func value(_ key: String, _ value: JSONValue) {
        members.append((key, value))
    }

    package var object: JSONValue { .object(members) }

    /// The object on one line, as UTF-8 bytes.
    package var bytes: [UInt8] { Array(object.compact.utf8) }
}
