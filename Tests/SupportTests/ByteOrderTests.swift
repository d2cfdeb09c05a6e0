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
}
