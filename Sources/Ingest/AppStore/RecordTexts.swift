import Support

/// How `TransactionRecord` keeps its raw text fields (`type`, `revocationType`, `environment`,
/// `inAppOwnershipType`, `currency`): each value Apple documents in a byte, a currency's three
/// letters in four, and any other value Apple sends (one added later) as it came, beside them.
///
/// The ledger holds a record for every transaction for the whole run: five `String?` fields
/// took 80 bytes of each, these take 16, and a record fits in a smaller block of memory.
enum RecordTexts {
    /// The code of no value.
    static let absent: UInt8 = 0
    /// The code of a value none of `known`: the text is in the record's `OtherTexts`.
    static let other: UInt8 = .max

    /// `text`'s code among `known` (its place, from 1), `absent` for nil, `other` for any other
    /// value; compared byte for byte, so a value reads back exactly as it came.
    static func code(_ text: String?, among known: [String]) -> UInt8 {
        guard let text else { return absent }
        guard let place = known.firstIndex(where: { $0.utf8.elementsEqual(text.utf8) }) else { return other }
        return UInt8(place + 1)
    }

    /// The value of a code other than `other`.
    static func text(_ code: UInt8, among known: [String]) -> String? {
        code == absent ? nil : known[Int(code) - 1]
    }

    /// No currency.
    static let noLetters: UInt32 = 0
    /// A currency that is not three capital letters: the text is in the record's `OtherTexts`.
    static let otherLetters: UInt32 = .max

    /// A currency code of three capital letters (ISO 4217's form) in one number, never 0 or
    /// `otherLetters`; nil for any other text.
    static func letters(_ currency: String) -> UInt32? {
        var packed: UInt32 = 0
        var count = 0
        for byte in currency.utf8 {
            guard count < 3, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") else { return nil }
            packed |= UInt32(byte) << (8 * UInt32(count))
            count += 1
        }
        return count == 3 ? packed : nil
    }

    /// The currency code `letters` holds (a string of three bytes is stored inline: no allocation).
    static func currency(_ letters: UInt32) -> String {
        String(unsafeUninitializedCapacity: 3) { buffer in
            for index in 0..<3 { buffer[index] = UInt8(truncatingIfNeeded: letters >> (8 * UInt32(index))) }
            return 3
        }
    }
}

/// The raw texts of one record that are none of the values Apple documents, by field: rare
/// (a value Apple added after this version), so kept apart, and shared by the record's copies.
package final class OtherTexts: Sendable, Hashable {
    enum Field: UInt8, Sendable, Hashable {
        case type, revocationType, environment, ownership, currency
    }

    let texts: [Field: String]

    private init(_ texts: [Field: String]) {
        self.texts = texts
    }

    /// `others` with `field` set to `text` (nil: removed); nil when no field has a text.
    static func setting(_ field: Field, to text: String?, in others: OtherTexts?) -> OtherTexts? {
        let current = others?.texts[field]
        if current == nil && text == nil { return others }
        if let current, let text, current.utf8.elementsEqual(text.utf8) { return others }
        var texts = others?.texts ?? [:]
        texts[field] = text
        return texts.isEmpty ? nil : OtherTexts(texts)
    }

    package static func == (left: OtherTexts, right: OtherTexts) -> Bool { left.texts == right.texts }

    package func hash(into hasher: inout Hasher) { hasher.combine(texts) }
}
