import Foundation
import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

/// A list kept in blocks reads and writes as the array of its elements, whatever its blocks.
@Suite("Block lists")
struct BlockListTests {
    /// The fields of a request claim as an array of them was coded before the claim was stored flat.
    struct CodedClaim: Codable {
        var entry: RequestEntry
        var line: Int
    }

    static func claims(_ count: Int) -> [RequestClaim] {
        (0..<count).map { index in
            RequestClaim(
                entry: RequestEntry(
                    route: UInt8(index % 256), key: UInt64(index) &* 0x9E37_79B9_7F4A_7C15 | 1, content: UInt32(index)),
                line: index + 2)
        }
    }

    /// Across a block's end (65,536 elements), after lists appended to each other with blocks
    /// not full, and empty.
    @Test(arguments: [0, 1, 65_536, 65_537, 150_000])
    func codesAsTheArrayOfItsElements(count: Int) throws {
        let claims = Self.claims(count)
        var list = BlockList(claims.prefix(count / 3))
        list += BlockList(claims.dropFirst(count / 3))
        #expect(list.count == count)
        #expect(Array(list) == claims)
        #expect(list == BlockList(claims))
        let asArray = try CompactCoder.encode(claims.map { CodedClaim(entry: $0.entry, line: $0.line) })
        #expect(try CompactCoder.encode(list) == asArray)
        #expect(try CompactCoder.decode(BlockList<RequestClaim>.self, from: asArray) == list)
        let json = try JSONEncoder().encode(list)
        #expect(try JSONDecoder().decode([CodedClaim].self, from: json).map(\.line) == claims.map(\.line))
        list.append(claims.first ?? RequestClaim(entry: RequestEntry(route: 1, key: 2, content: 3), line: 4))
        #expect(list.count == count + 1)
    }

    /// Each element is found by its place, in lists joined with blocks not full between them:
    /// 70,000 (a full block and one of 4,464), 3, then 65,540 (a full block and one of 4).
    @Test func everyElementIsFoundByItsPlace() {
        let claims = Self.claims(70_000 + 3 + 65_540)
        var list = BlockList(claims.prefix(70_000))
        list += BlockList(claims[70_000..<70_003])
        list += BlockList(claims.suffix(65_540))
        #expect(list.count == claims.count)
        #expect(claims.indices.allSatisfy { list[$0] == claims[$0] })
        // The blocks' edges, by hand: 65,535 and 65,536 (the first block's end), 69,999 and
        // 70,000 (the second's and the three's), 70,003 (the next list's first).
        for index in [0, 65_535, 65_536, 69_999, 70_000, 70_002, 70_003, 135_542] {
            #expect(list[index].line == index + 2)
        }
    }

    /// A claim takes 24 bytes: a partial holds one for every request id it reads.
    @Test func aClaimTakesTwentyFourBytes() {
        #expect(MemoryLayout<RequestClaim>.stride == 24)
    }

    /// Coded in pieces handed on as they are made (a partial's claims), the pieces joined are the
    /// value's coding; compressed as they come, written and read back, the value is the same.
    @Test(arguments: [0, 3, 150_000])
    func aListWrittenAsItIsCodedReadsBack(count: Int) throws {
        let claims = BlockList(Self.claims(count))
        var pieces: [[UInt8]] = []
        try CompactCoder.encode(claims, pieces: 1 << 16, to: { pieces.append($0) })
        #expect(pieces.joined().elementsEqual(try CompactCoder.encode(claims)))
        #expect(pieces.dropLast().allSatisfy { $0.count >= 1 << 16 })
        let secret = try StepSecret(testStepSecret)
        let path = try TestFiles.temporaryDirectory("streamed-\(count)") + "/claims"
        try PackedFile.write(kind: "request claims", version: 1, to: path, secret: secret) {
            try CompactCoder.encode(claims, pieces: 1 << 16, to: $0)
        }
        let content = try PackedFile.read(path, kind: "request claims", version: 1, secret: secret)
        #expect(try CompactCoder.decode(BlockList<RequestClaim>.self, from: content) == claims)
        #expect(content == (try Gzip.decompress(try Gzip.compress(content, name: path), name: path)))
    }
}
