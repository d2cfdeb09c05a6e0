/// Strings made from bytes, the same text given back as the same string: a value repeated
/// across records (a file's path, a product id, a product type) shares one heap buffer instead
/// of one for each record that holds it.
///
/// A string of up to 15 bytes is held inside the string itself and needs no cache. Longer ones
/// go through a table of `slots` entries indexed by a hash of their bytes, where a new text takes
/// the place of the one it collides with: the table stays the same size however many strings
/// pass (ids seen once just go through), while the repeated ones stay in it.
package struct RepeatedStrings {
    private var slots: [String?]
    private let mask: Int

    /// `slots` is rounded up to a power of two.
    package init(slots: Int = 1024) {
        var size = 1
        while size < slots { size <<= 1 }
        self.slots = Array(repeating: nil, count: size)
        mask = size - 1
    }

    /// `text`, or the equal string kept earlier (whose buffer it then shares).
    package mutating func interned(_ text: String) -> String {
        var text = text
        guard text.utf8.count > 15 else { return text }
        let slot = text.withUTF8 { Int(truncatingIfNeeded: FastHash.hash(UnsafeRawBufferPointer($0))) } & mask
        if let kept = slots[slot], kept == text { return kept }
        slots[slot] = text
        return text
    }

    /// The string of `bytes` (UTF-8, invalid sequences replaced as `String(decoding:as:)` does).
    package mutating func string(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.count > 15 else { return String(decoding: bytes, as: UTF8.self) }
        let slot = Int(truncatingIfNeeded: FastHash.hash(bytes)) & mask
        if let kept = slots[slot], kept.utf8.elementsEqual(bytes) { return kept }
        let made = String(decoding: bytes, as: UTF8.self)
        slots[slot] = made
        return made
    }
}
