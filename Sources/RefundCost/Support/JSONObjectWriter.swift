/// Writes a JSON object with keys in the order given, so generated payloads are the same
/// bytes every time (a dictionary encoder would not promise an order).
struct JSONObjectWriter {
    private(set) var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var first = true

    mutating func string(_ key: String, _ value: String?) {
        guard let value else { return }
        self.key(key)
        JSONObjectWriter.appendString(value, to: &bytes)
    }

    mutating func integer(_ key: String, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func bool(_ key: String, _ value: Bool) {
        self.key(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Embeds an already written JSON value.
    mutating func raw(_ key: String, _ json: [UInt8]) {
        self.key(key)
        bytes.append(contentsOf: json)
    }

    mutating func stringArray(_ key: String, _ values: [String]) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONObjectWriter.appendString(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    func finished() -> [UInt8] { bytes + [UInt8(ascii: "}")] }

    private mutating func key(_ key: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        JSONObjectWriter.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

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
