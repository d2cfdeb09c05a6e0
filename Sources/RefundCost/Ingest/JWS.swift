/// A JWS in compact serialization: `header.payload.signature`, each part base64url.
///
/// The payload is what the product reads. The header (with Apple's `x5c` certificate chain)
/// and the signature are kept as they came, so verifying them can be added without
/// reshaping anything that reads payloads.
package struct JWS: Sendable, Hashable {
    package var header: [UInt8]
    package var payload: [UInt8]
    package var signature: String

    package init(compact: String) throws(JWSError) {
        let parts = compact.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .notThreeSegments(parts.count) }
        guard let header = Base64URL.decode(parts[0]) else { throw .badBase64(segment: "header") }
        guard let payload = Base64URL.decode(parts[1]) else { throw .badBase64(segment: "payload") }
        self.header = header
        self.payload = payload
        self.signature = String(decoding: parts[2], as: UTF8.self)
    }
}

package enum JWSError: Error, Sendable, Hashable, CustomStringConvertible {
    case notThreeSegments(Int)
    case badBase64(segment: String)

    package var description: String {
        switch self {
        case .notThreeSegments(let count): "a JWS has three dot-separated segments; this one has \(count)"
        case .badBase64(let segment): "the JWS \(segment) is not base64url"
        }
    }
}

/// Base64url (RFC 4648 §5) with optional padding; plain base64's `+` and `/` are accepted too.
package enum Base64URL {
    package static func decode<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for byte in text {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let value = sextet(byte) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // A lone leftover sextet cannot encode a byte; more than two '=' is not base64.
        guard bits < 6, padding <= 2 else { return nil }
        return output
    }

    package static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { output.append(alphabet[Int(value >> UInt32(shift) & 63)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            var value = UInt32(bytes[index]) << 16
            if rest == 2 { value |= UInt32(bytes[index + 1]) << 8 }
            for shift in [18, 12, 6].prefix(rest + 1) { output.append(alphabet[Int(value >> UInt32(shift) & 63)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"), UInt8(ascii: "+"): 62
        case UInt8(ascii: "_"), UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
