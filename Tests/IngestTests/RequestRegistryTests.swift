import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

@Suite("Request-id registry")
struct RequestRegistryTests {
    /// A fixed key, so that a failure can be replayed.
    let hash = SipHash(key0: 0x0123_4567_89ab_cdef, key1: 0xfedc_ba98_7654_3210)

    /// An entry as the cost reader makes one: the id's 128-bit hash and a content digest.
    func entry(_ id: String, content: UInt64) -> RequestEntry {
        var bytes = Array(id.utf8)
        let hashed = bytes.withUnsafeMutableBytes { hash.hash128(UnsafeRawBufferPointer($0)) }
        return RequestEntry(id: hashed, content: content)
    }

    @Test func theFirstRowOfAnIdCountsAndLaterOnesAreRepeatsOrConflicts() {
        let registry = RequestRegistry(hash: hash)
        #expect(registry.claim(entry("req-1", content: 7)) == .first)
        #expect(registry.claim(entry("req-2", content: 7)) == .first)
        #expect(registry.claim(entry("req-1", content: 7)) == .repeated)
        #expect(registry.claim(entry("req-1", content: 8)) == .conflicting)
        // The first content stays the one compared with: a third copy like the first is a repeat.
        #expect(registry.claim(entry("req-1", content: 7)) == .repeated)
        #expect(registry.size.ids == 2)
    }

    /// Many ids through every growth of the tables: none is lost or confused with another, and
    /// the contents stored are the ones compared.
    @Test func everyIdIsKeptThroughTheTablesGrowth() {
        let registry = RequestRegistry(shards: 4, hash: hash)
        let ids = 60_000
        for n in 0..<ids { #expect(registry.claim(entry("id-\(n)", content: UInt64(n))) == .first) }
        #expect(registry.size.ids == ids)
        var wrong = 0
        for n in 0..<ids {
            if registry.claim(entry("id-\(n)", content: UInt64(n))) != .repeated { wrong += 1 }
            if registry.claim(entry("id-\(n)", content: UInt64(n) + 1)) != .conflicting { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(registry.size.ids == ids)
    }

    /// The budget: at most 16 bytes a distinct id once the tables are past their first
    /// size, whatever the moment (the tables are 75% to 85% full).
    @Test func theTablesHoldAtMostSixteenBytesAnId() {
        let registry = RequestRegistry(shards: 8, hash: hash)
        var worst = 0.0
        var best = Double.infinity
        for n in 0..<200_000 {
            _ = registry.claim(entry("r\(n)", content: 0))
            if n >= 20_000 && n % 997 == 0 {
                let size = registry.size
                let perID = Double(size.bytes) / Double(size.ids)
                worst = max(worst, perID)
                best = min(best, perID)
            }
        }
        #expect(worst <= 16)
        // 12 bytes a slot at 85% at most: 14.1 bytes an id is as full as the tables get.
        #expect(best >= 14)
    }

    @Test func seedsMakeTheirIdsRepeats() {
        let seed = entry("seen-elsewhere", content: 3)
        let registry = RequestRegistry(hash: hash, seeds: [seed])
        #expect(registry.claim(entry("seen-elsewhere", content: 3)) == .repeated)
        #expect(registry.claim(entry("seen-elsewhere", content: 4)) == .conflicting)
        #expect(registry.claim(entry("new", content: 3)) == .first)
    }

    @Test func anEntryIsCodedAsTwoNumbersAndComesBackTheSame() throws {
        let original = entry("req-42", content: 0xdead_beef_cafe)
        let coded = try CompactCoder.encode([original])
        let decoded = try CompactCoder.decode([RequestEntry].self, from: coded)
        #expect(decoded == [original])
        #expect(decoded[0].idBits == original.idBits)
        // The content digest keeps its low 32 bits.
        #expect(decoded[0].content == 0xbeef_cafe)
        #expect(original.withContent(of: entry("other", content: 5)).content == 5)
    }
}
