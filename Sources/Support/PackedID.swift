/// An id held in the 16 bytes of a `String` with no memory of its own, when it is digits.
///
/// Swift keeps a text of up to 15 bytes inside the `String` itself; a longer one is a pointer to
/// a block of its own (64 bytes for 16 digits). Apple's transaction ids are 16 digits, one past
/// that, and the ledger holds one for every transaction of every account for the whole run: at a
/// million accounts, about 100 MB of such blocks. An id of 16 to 28 digits is kept instead as a
/// zero byte followed by its digits two to a byte (11 bytes for 16 digits), inside the `String`.
///
/// The packing is exact and one to one: every id has one form, two ids are equal exactly when
/// their forms are (leading zeros and the digit count are kept), and `text` gives back the bytes
/// it was given. A real id that starts with a zero byte is kept as a second zero byte followed
/// by its text, so it never reads as a packed one (a packed byte is never zero). Ids are told
/// apart by their bytes (docs/inputs.md, "Identifiers"), so forms are compared by theirs.
package struct PackedID: Hashable, Comparable, Sendable {
    let form: String

    package init(_ id: String) {
        if let packed = PackedID.packed(id.utf8) {
            form = packed
        } else if id.utf8.first == 0 {
            form = "\u{0}" + id
        } else {
            form = id
        }
    }

    /// The id whose text is `bytes` decoded as UTF-8 (an invalid byte read as U+FFFD, as
    /// `String(decoding:as:)` does), made without a `String` of the text when it is packed: an
    /// id read from a file's bytes leaves no block behind.
    package init(utf8 bytes: UnsafeRawBufferPointer) {
        if let packed = PackedID.packed(bytes) {
            self.init(form: packed)
        } else {
            self.init(String(decoding: bytes, as: UTF8.self))
        }
    }

    private init(form: String) { self.form = form }

    /// This id with its form held once in `strings` when it has memory of its own (a packed
    /// one has none).
    package func interned(_ strings: inout StringInterner) -> PackedID { PackedID(form: strings(form)) }

    package static func == (lhs: PackedID, rhs: PackedID) -> Bool { lhs.form.bytesEqual(rhs.form) }

    package func hash(into hasher: inout Hasher) {
        var form = form
        form.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// An order of the forms by their bytes, which agrees with `==`: for counting and finding
    /// ids, not for listing them (a packed id does not sort as its text).
    package static func < (lhs: PackedID, rhs: PackedID) -> Bool { lhs.form.bytesPrecede(rhs.form) }

    /// True for the empty id.
    package var isEmpty: Bool { form.isEmpty }

    /// The id as it was given.
    package var text: String {
        var form = form
        return form.withUTF8 { bytes -> String in
            guard bytes.first == 0, bytes.count > 1 else { return self.form }
            if bytes[1] == 0 { return String(decoding: UnsafeBufferPointer(rebasing: bytes[1...]), as: UTF8.self) }
            return PackedID.unpacked(UnsafeBufferPointer(rebasing: bytes[1...]))
        }
    }

    /// The fewest and most digits packed: fewer fit in a `String` as they are, more would not
    /// fit packed (a zero byte and 14 bytes of two digits).
    static let packedDigits = 16...28

    /// The packed form of the id whose bytes are `utf8`, nil when it is not 16 to 28 digits.
    ///
    /// A byte of two digits `a` and `b` is `10a + b + 1` (1 to 100); the last of an odd count,
    /// `d`, is `101 + d` (101 to 110). Every byte is ASCII and none is zero.
    private static func packed<Bytes: Collection<UInt8>>(_ utf8: Bytes) -> String? {
        guard packedDigits.contains(utf8.count), utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        return String(unsafeUninitializedCapacity: 1 + (utf8.count + 1) / 2) { buffer in
            buffer[0] = 0
            var at = 1
            var iterator = utf8.makeIterator()
            while let first = iterator.next() {
                let high = first - UInt8(ascii: "0")
                if let second = iterator.next() {
                    buffer[at] = 10 * high + (second - UInt8(ascii: "0")) + 1
                } else {
                    buffer[at] = 101 + high
                }
                at += 1
            }
            return at
        }
    }

    private static func unpacked(_ packed: UnsafeBufferPointer<UInt8>) -> String {
        let digits = packed.reduce(0) { count, byte in count + (byte > 100 ? 1 : 2) }
        return String(unsafeUninitializedCapacity: digits) { buffer in
            var at = 0
            for byte in packed {
                if byte > 100 {
                    buffer[at] = byte - 101 + UInt8(ascii: "0")
                    at += 1
                } else {
                    buffer[at] = (byte - 1) / 10 + UInt8(ascii: "0")
                    buffer[at + 1] = (byte - 1) % 10 + UInt8(ascii: "0")
                    at += 2
                }
            }
            return at
        }
    }
}

/// Coded as its text, a single string: a record holding a packed id codes exactly as one holding
/// the text did.
extension PackedID: Codable {
    package init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
