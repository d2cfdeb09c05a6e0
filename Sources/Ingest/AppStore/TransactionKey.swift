import Support

/// A transaction id as a dictionary key.
///
/// Apple's ids are digits, one past the length a `String` holds inline, so a `String` key is a
/// pointer to memory of its own: every lookup that finds a key follows it to compare the bytes,
/// a cache miss a lookup. An id of up to 19 digits without a leading zero is kept as its
/// number instead (two ids are equal exactly when their numbers are); any other id keeps its
/// text, compared by its bytes (docs/inputs.md, "Identifiers").
package struct TransactionKey: Hashable, Sendable {
    /// The id's value when it is a number; `UInt64.max` (never the value of 19 digits) when not.
    private let number: UInt64
    private let text: BytesKey?

    package init(_ id: String) {
        if let number = TransactionKey.number(id) {
            self.number = number
            text = nil
        } else {
            number = .max
            text = BytesKey(id)
        }
    }

    /// The value of `id` when it is 1 to 19 decimal digits, the first not a zero unless it is
    /// the only one (so that "07" and "7", different ids, never meet).
    fileprivate static func number(_ id: String) -> UInt64? {
        let utf8 = id.utf8
        guard let first = utf8.first, utf8.count <= 19, first != UInt8(ascii: "0") || utf8.count == 1 else { return nil }
        var value: UInt64 = 0
        for byte in utf8 {
            guard let digit = decimalDigit(byte) else { return nil }
            value = value &* 10 &+ UInt64(digit)
        }
        return value
    }
}

extension TransactionKey: Comparable {
    /// An order that agrees with `==`, for a sorted list of keys searched by halves: numbers
    /// first, by value, then ids kept as text, by their bytes.
    package static func < (lhs: TransactionKey, rhs: TransactionKey) -> Bool {
        if lhs.number != rhs.number { return lhs.number < rhs.number }
        return (lhs.text?.text ?? "").bytesPrecede(rhs.text?.text ?? "")
    }
}

extension TransactionKey: CompactKey {
    static func compact(_ id: String) -> UInt64? { number(id) }
}
