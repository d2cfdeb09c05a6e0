import Support

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

    /// Only the decoded payload of a compact JWS, for the hot path of reading exports.
    package static func payload(of compact: UnsafeRawBufferPointer) throws(JWSError) -> [UInt8] {
        guard let base = compact.baseAddress else { throw .notThreeSegments(1) }
        let count = compact.count
        guard let firstHit = findFirst(UInt8(ascii: "."), in: base, count) else { throw .notThreeSegments(1) }
        let first = firstHit - base
        guard let secondHit = findFirst(UInt8(ascii: "."), in: base + first + 1, count - first - 1) else {
            throw .notThreeSegments(2)
        }
        let second = secondHit - base
        if findFirst(UInt8(ascii: "."), in: base + second + 1, count - second - 1) != nil {
            throw .notThreeSegments(compact.reduce(1) { $1 == UInt8(ascii: ".") ? $0 + 1 : $0 })
        }
        // The header (Apple's certificate chain, most of the JWS) is only checked here: the
        // payload is what this path reads.
        guard Base64URL.isValid(UnsafeRawBufferPointer(rebasing: compact[..<first])) else {
            throw .badBase64(segment: "header")
        }
        guard let payload = Base64URL.decode(compact[(first + 1)..<second]) else { throw .badBase64(segment: "payload") }
        return payload
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
        let fast = text.withContiguousStorageIfAvailable { decode(UnsafeRawBufferPointer($0)) }
        if let fast { return fast }
        return Array(text).withUnsafeBytes { decode($0) }
    }

    /// Four characters at a time through a lookup table.
    package static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        var count = text.count
        while count > 0 && text[count - 1] == UInt8(ascii: "=") { count -= 1 }
        // A lone leftover character cannot encode a byte; more than two '=' is not base64.
        guard text.count - count <= 2, count % 4 != 1 else { return nil }
        var valid = true
        // Every byte of the output is written below, so it is not zeroed first.
        let output = [UInt8](unsafeUninitializedCapacity: count / 4 * 3 + max(0, count % 4 - 1)) { out, initialized in
            initialized = out.count
            Base64URL.table.withUnsafeBufferPointer { table in decode(text, count: count, table: table, into: out, valid: &valid)
            }
        }
        return valid ? output : nil
    }

    /// True when `text` decodes (the same checks as `decode`), without writing the bytes.
    package static func isValid(_ text: UnsafeRawBufferPointer) -> Bool {
        var count = text.count
        while count > 0 && text[count - 1] == UInt8(ascii: "=") { count -= 1 }
        guard text.count - count <= 2, count % 4 != 1 else { return false }
        return Base64Alphabet.containsOnly(UnsafeRawBufferPointer(rebasing: text[..<count]))
    }

    /// The decoding loop: `count` characters of `text` (without padding) into `out`.
    @inline(__always)
    private static func decode(
        _ text: UnsafeRawBufferPointer, count: Int, table: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutableBufferPointer<UInt8>,
        valid: inout Bool
    ) {
        var input = 0
        var position = 0
        while input + 4 <= count {
            let a = table[Int(text[input])], b = table[Int(text[input + 1])]
            let c = table[Int(text[input + 2])], d = table[Int(text[input + 3])]
            if (a | b | c | d) & 0x80 != 0 {
                valid = false
                return
            }
            let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            out[position] = UInt8(truncatingIfNeeded: value >> 16)
            out[position + 1] = UInt8(truncatingIfNeeded: value >> 8)
            out[position + 2] = UInt8(truncatingIfNeeded: value)
            input += 4
            position += 3
        }
        let rest = count - input
        guard rest > 0 else { return }
        var value: UInt32 = 0
        for offset in 0..<rest {
            let sextet = table[Int(text[input + offset])]
            if sextet & 0x80 != 0 {
                valid = false
                return
            }
            value |= UInt32(sextet) << UInt32(18 - 6 * offset)
        }
        out[position] = UInt8(truncatingIfNeeded: value >> 16)
        if rest == 3 { out[position + 1] = UInt8(truncatingIfNeeded: value >> 8) }
    }

    /// Sextet per byte, 0x80 for a byte that is not in the alphabet.
    private static let table: [UInt8] = (0..<256).map { sextet(UInt8($0)) ?? 0x80 }

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

    /// Plain base64 with padding (RFC 4648 section 4), as the certificates of a JWS `x5c`
    /// header are written.
    package static func encodeStandard(_ bytes: [UInt8]) -> String {
        var text = encode(bytes).replacing("-", with: "+").replacing("_", with: "/")
        while text.utf8.count % 4 != 0 { text += "=" }
        return text
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
