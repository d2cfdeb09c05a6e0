import Testing

@testable import Support

/// A text repeated across records is one string in memory; every text comes back as it was.
@Suite("Repeated strings")
struct RepeatedStringsTests {
    private func address(_ text: String) -> UnsafeRawPointer? {
        var text = text
        return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    private func make(_ cache: inout RepeatedStrings, _ text: String) -> String {
        Array(text.utf8).withUnsafeBytes { cache.string($0) }
    }

    @Test func aRepeatedTextSharesOneBufferAndEveryTextComesBackAsItWas() {
        var cache = RepeatedStrings(slots: 8)
        let path = "/data/notifications/2026-10.jsonl"
        let first = make(&cache, path)
        let second = make(&cache, path)
        #expect(first == path && second == path)
        #expect(address(first) == address(second))
        // Two texts that fall in the one slot of a cache of one: each still comes back as it was,
        // the newer one taking the slot.
        var one = RepeatedStrings(slots: 1)
        let a = make(&one, "com.example.credits.large")
        let b = make(&one, "Auto-Renewable Subscription")
        let c = make(&one, "Auto-Renewable Subscription")
        let d = make(&one, "com.example.credits.large")
        #expect(
            [a, b, c, d] == [
                "com.example.credits.large", "Auto-Renewable Subscription", "Auto-Renewable Subscription",
                "com.example.credits.large",
            ])
        #expect(address(b) == address(c))
        #expect(address(a) != address(d))
        // Up to 15 bytes a string holds its text itself; invalid UTF-8 is replaced as String(decoding:) does.
        #expect(make(&cache, "USD") == "USD")
        let invalid: [UInt8] = Array("0123456789abcdef".utf8) + [0xFF]
        #expect(invalid.withUnsafeBytes { cache.string($0) } == String(decoding: invalid, as: UTF8.self))
    }
}
