/// A three-letter ISO 4217 currency code packed into one integer, so comparing and hashing
/// it on the per-row path costs nothing.
package struct CurrencyCode: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    package let packed: UInt32

    package static let usd = CurrencyCode(packed: 0x55_53_44)

    package init(packed: UInt32) {
        self.packed = packed
    }

    /// Three ASCII letters; lower case is accepted and stored upper case.
    package init?(_ field: UnsafeRawBufferPointer) {
        guard field.count == 3 else { return nil }
        var packed: UInt32 = 0
        for byte in field {
            let upper = byte & 0xDF
            guard upper >= UInt8(ascii: "A") && upper <= UInt8(ascii: "Z") else { return nil }
            packed = packed << 8 | UInt32(upper)
        }
        self.packed = packed
    }

    package init?(validating text: String) {
        var text = text
        guard let code = text.withUTF8({ CurrencyCode(UnsafeRawBufferPointer($0)) }) else { return nil }
        self = code
    }

    package static func < (lhs: CurrencyCode, rhs: CurrencyCode) -> Bool { lhs.packed < rhs.packed }

    package var description: String {
        let bytes = [UInt8(packed >> 16 & 0xFF), UInt8(packed >> 8 & 0xFF), UInt8(packed & 0xFF)]
        return String(decoding: bytes, as: UTF8.self)
    }
}
