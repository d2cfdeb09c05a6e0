import Support

/// A `notificationUUID` as the reader's table keeps it, to drop retries (`PlaceTable`).
///
/// A UUID is 36 bytes a `String` keeps in memory of its own (64 bytes a string, and a million
/// accounts' exports hold millions of notifications), and each lookup that found one would
/// follow it to compare the bytes. A UUID written in lowercase, Apple's way, is kept as its 128
/// bits instead; one written in uppercase, as some servers store them, as its bits in a table of
/// its own (two are equal exactly when their bits are, and an uppercase one is never the same id
/// as its lowercase form). Any other text, mixed case too, keeps its text.
enum NotificationKey: CompactKey {
    static func compact(_ uuid: String) -> UInt128? { bits(uuid, letters: UInt8(ascii: "a")) }

    static func otherCompact(_ uuid: String) -> UInt128? { bits(uuid, letters: UInt8(ascii: "A")) }

    /// The 128 bits of `uuid`, else nil.
    ///
    /// `uuid` must be 8-4-4-4-12 hexadecimal digits whose letters run from `letters` (`a` or
    /// `A`). One without letters has the lowercase form, so the uppercase table never sees it.
    private static func bits(_ uuid: String, letters: UInt8) -> UInt128? {
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
            case letters...(letters + 5): digit = byte - letters + 10
            default: return nil
            }
            bits = bits << 4 | UInt128(digit)
        }
        return bits
    }
}
