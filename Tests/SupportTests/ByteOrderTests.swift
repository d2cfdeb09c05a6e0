import Testing

@testable import Support
@testable import TestSupport

@Suite("Text sorted by its bytes")
struct ByteOrderTests {
    @Test func sortsAsTheUTF8BytesDo() {
        let words = [
            "", "a", "A", "ab", "abc", "abd", "b", "acct-000010", "acct-00001", "Zürich", "Zurich", "é", "e\u{301}", "日本",
            "🙂", "a\u{0}b", "a\u{0}", String(repeating: "x", count: 40), String(repeating: "x", count: 39) + "y",
        ]
        for left in words {
            for right in words {
                #expect(left.bytesPrecede(right) == left.utf8.lexicographicallyPrecedes(right.utf8), "\(left) < \(right)")
            }
        }
        // Canonically equal, different bytes: String's own < calls them equal, bytes do not.
        #expect("e\u{301}".bytesPrecede("é"))
    }

    /// Each byte string once, in byte order: "é" in its two forms stays twice, "b" and "a" once.
    @Test func uniqueByBytesKeepsBothFormsOfOneText() {
        let sorted = ["b", "é", "a", "b", "e\u{301}", "a", "é", ""].sortedUniqueByBytes()
        #expect(sorted.map { Array($0.utf8) } == ["", "a", "b", "e\u{301}", "é"].map { Array($0.utf8) })
        #expect([String]().sortedUniqueByBytes().isEmpty)
        #expect("é".bytesEqual("é") && !"é".bytesEqual("e\u{301}"))
    }

    /// As dictionary keys, "é" in its two forms is two keys, where `String` keys make one.
    @Test func bytesKeysKeepBothFormsOfOneText() {
        var places: [BytesKey: Int] = [:]
        for (place, text) in ["\u{E9}", "e\u{301}", "a", "\u{E9}", ""].enumerated() where places[BytesKey(text)] == nil {
            places[BytesKey(text)] = place
        }
        #expect(places.count == 4)
        #expect(places[BytesKey("\u{E9}")] == 0 && places[BytesKey("e\u{301}")] == 1)
        #expect(places[BytesKey("a")] == 2 && places[BytesKey("")] == 4)
        #expect(places[BytesKey("b")] == nil)
        #expect(Set(["\u{E9}", "e\u{301}"]).count == 1)
    }
}
