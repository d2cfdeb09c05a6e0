import Glibc

extension String {
    /// True when the string's UTF-8 bytes sort before `other`'s: the order every output lists
    /// text in, whatever the locale, compared with memcmp (sorting a million account ids
    /// element by element through `utf8` costs a tenth of a second more).
    package func bytesPrecede(_ other: String) -> Bool {
        var left = self
        var right = other
        return left.withUTF8 { a in
            right.withUTF8 { b in
                let shared = min(a.count, b.count)
                if shared > 0, let x = a.baseAddress, let y = b.baseAddress {
                    let order = memcmp(x, y, shared)
                    if order != 0 { return order < 0 }
                }
                return a.count < b.count
            }
        }
    }

    /// True when the string's UTF-8 bytes are `other`'s: ids compare so, not as Unicode text
    /// (where "é" as one scalar equals "e" and a combining accent).
    package func bytesEqual(_ other: String) -> Bool { utf8.elementsEqual(other.utf8) }
}

extension Array where Element == String {
    /// The strings sorted by their bytes, each byte string once.
    package func sortedUniqueByBytes() -> [String] {
        var sorted = self.sorted { $0.bytesPrecede($1) }
        var kept = 0
        for index in sorted.indices where kept == 0 || !sorted[index].bytesEqual(sorted[kept - 1]) {
            sorted.swapAt(kept, index)
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        return sorted
    }
}

/// A text as a dictionary key, told apart by its bytes: as a `String` key, "é" as one scalar and
/// "e" with a combining accent would be one key, where ids are two (docs/inputs.md,
/// "Identifiers").
package struct BytesKey: Hashable, Sendable {
    package let text: String

    package init(_ text: String) { self.text = text }

    package static func == (lhs: BytesKey, rhs: BytesKey) -> Bool { lhs.text.bytesEqual(rhs.text) }

    package func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
