/// A small DER writer (X.690): just what certificates and ECDSA signatures need, so the
/// generator can build a test chain byte for byte the same for a seed.
package enum DER {
    package static func sequence(_ items: [[UInt8]]) -> [UInt8] { tagged(0x30, items.flatMap { $0 }) }
    package static func set(_ items: [[UInt8]]) -> [UInt8] { tagged(0x31, items.flatMap { $0 }) }
    package static func octetString(_ bytes: [UInt8]) -> [UInt8] { tagged(0x04, bytes) }
    package static func utf8String(_ text: String) -> [UInt8] { tagged(0x0C, Array(text.utf8)) }
    package static let null: [UInt8] = [0x05, 0x00]

    package static func boolean(_ value: Bool) -> [UInt8] { [0x01, 0x01, value ? 0xFF : 0x00] }

    /// A BIT STRING with no unused bits.
    package static func bitString(_ bytes: [UInt8]) -> [UInt8] { tagged(0x03, [0] + bytes) }

    /// `[n] EXPLICIT`: a context-specific constructed wrapper.
    package static func explicit(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { tagged(0xA0 | tag, content) }

    /// A non-negative INTEGER from big-endian magnitude bytes (leading zeros dropped, one added
    /// when the high bit is set).
    static func unsignedInteger(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty { bytes = [0] }
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tagged(0x02, bytes)
    }

    package static func integer(_ value: UInt64) -> [UInt8] {
        unsignedInteger((0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) })
    }

    /// An OBJECT IDENTIFIER from its dotted form, like `1.2.840.10045.4.3.2`.
    package static func objectIdentifier(_ dotted: String) -> [UInt8] {
        let arcs = dotted.split(separator: ".").compactMap { UInt64($0) }
        guard arcs.count >= 2 else { return tagged(0x06, []) }
        var body: [UInt8] = [UInt8(arcs[0] * 40 + arcs[1])]
        for arc in arcs.dropFirst(2) {
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            body += chunk
        }
        return tagged(0x06, body)
    }

    /// UTCTime (before 2050) or GeneralizedTime, to the second, in UTC.
    package static func time(_ timestamp: Timestamp) -> [UInt8] {
        let date = timestamp.civilDate
        let seconds = (timestamp.milliseconds / 1000) % 86_400
        var text = ""
        let useUTC = date.year >= 1950 && date.year < 2050
        text += useUTC ? String(date.year % 100).leftPadded(to: 2) : String(date.year).leftPadded(to: 4)
        for part in [date.month, date.day, seconds / 3600, seconds / 60 % 60, seconds % 60] {
            text += String(part).leftPadded(to: 2)
        }
        return tagged(useUTC ? 0x17 : 0x18, Array((text + "Z").utf8))
    }

    package static func tagged(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        [tag] + length(content.count) + content
    }

    private static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    /// The ECDSA-Sig-Value (`SEQUENCE { r, s }`) of a 64-byte JOSE signature `r || s`.
    package static func ecdsaSignature(jose: UnsafeRawBufferPointer) -> [UInt8]? {
        guard jose.count == 64 else { return nil }
        return sequence([unsignedInteger(Array(jose[0..<32])), unsignedInteger(Array(jose[32..<64]))])
    }
}
