import Support

/// A `notificationUUID` as the reader's table keeps it, to drop retries (`PlaceTable`).
///
/// Apple's are lowercase UUIDs, 36 bytes a `String` keeps in memory of its own: each lookup
/// that finds one would follow it to compare the bytes. A lowercase UUID is kept as its 128 bits
/// instead (two are equal exactly when their bits are); any other text keeps its text.
enum NotificationKey: CompactKey {
    static func compact(_ uuid: String) -> UInt128? { bits(uuid) }

    /// The 128 bits of `uuid` written as 8-4-4-4-12 lowercase hexadecimal digits, else nil (an
    /// uppercase digit is other text: "A" and "a" are different ids to a byte comparison).
    private static func bits(_ uuid: String) -> UInt128? {
        let utf8 = uuid.utf8
        guard utf8.count == 36 else { return nil }
        var bits: UInt128 = 0
        for (offset, byte) in utf8.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            bits = bits << 4 | UInt128(digit)
        }
        return bits
    }
}
