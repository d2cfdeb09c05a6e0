import Testing

@testable import Support
@testable import TestSupport

/// The binary form of the steps' files: every shape the snapshot and partials use comes back
/// equal, and damaged data is refused.
@Suite("Compact binary coding")
struct CompactCodingTests {
    struct Record: Codable, Equatable {
        var name: String
        var count: Int
        var negative: Int64
        var big: UInt64
        var flag: Bool
        var missing: String?
        var present: Int?
        var money: Money
        var at: Timestamp
        var currency: CurrencyCode
        var list: [Int32]
        var set: Set<String>
        var byName: [String: [Money]]
        var byNumber: [Int64: String]
        var optionals: [Int?]
        var bytes: [UInt8]
        var nested: [Inner]
    }

    struct Inner: Codable, Equatable, Hashable {
        var day: Int64
        var note: String?
    }

    @Test func everyShapeComesBackEqual() throws {
        let record = Record(
            name: "ünïcode, \"quoted\"", count: -5, negative: .min, big: .max, flag: true, missing: nil, present: 0,
            money: Money(nanos: -1_234_567_890), at: Timestamp(milliseconds: 1_790_000_000_000), currency: .usd,
            list: [0, -1, .max, .min], set: ["a", "", "b"], byName: ["x": [Money(nanos: 1)], "": []],
            byNumber: [-3: "minus three", 1 << 40: "big"], optionals: [nil, 1, nil], bytes: [0, 255, 128, 7],
            nested: [Inner(day: 1, note: nil), Inner(day: -2, note: "n")])
        let bytes = try CompactCoder.encode(record)
        #expect(try CompactCoder.decode(Record.self, from: bytes) == record)
    }

    @Test func damagedDataIsRefused() throws {
        let bytes = try CompactCoder.encode(Inner(day: 300, note: "text"))
        #expect(throws: CompactCodingError.self) { try CompactCoder.decode(Inner.self, from: Array(bytes.dropLast())) }
        #expect(throws: CompactCodingError.self) { try CompactCoder.decode(Inner.self, from: bytes + [0]) }
        #expect(throws: CompactCodingError.self) { try CompactCoder.decode([Inner].self, from: [0xff, 0xff, 0xff, 0x0f]) }
    }

    /// A source of `content` that hands out at most `most` bytes at a time and remembers the
    /// largest buffer it was asked to fill.
    private final class Source {
        let content: [UInt8]
        let most: Int
        var offset = 0
        var largestAsked = 0

        init(_ content: [UInt8], most: Int) {
            self.content = content
            self.most = most
        }

        func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
            largestAsked = max(largestAsked, buffer.count)
            let count = min(buffer.count, most, content.count - offset)
            content.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + count])) }
            offset += count
            return count
        }
    }

    /// Pulled from a source a few bytes at a time, or a megabyte, the value is the one coded:
    /// values that straddle what was handed out, a text of 3 MB, 200,000 small records.
    @Test(arguments: [1, 7, 4096, 1 << 22])
    func pulledFromASourceTheValueComesBackEqual(most: Int) throws {
        let record = Record(
            name: String(repeating: "é", count: 1_500_000), count: 1, negative: -2, big: 3, flag: false, missing: nil,
            present: nil, money: Money(nanos: 5), at: Timestamp(milliseconds: 6), currency: .usd, list: Array(0..<200_000),
            set: ["x"], byName: [:], byNumber: [7: "seven"], optionals: [1], bytes: Array(repeating: 9, count: 70_000),
            nested: (0..<1000).map { Inner(day: Int64($0), note: $0 % 3 == 0 ? nil : "note \($0)") })
        let bytes = try CompactCoder.encode(record)
        let source = Source(bytes, most: most)
        #expect(try CompactCoder.decode(Record.self, size: bytes.count, from: source.fill) == record)
        #expect(source.offset == bytes.count)
    }

    /// The decoder asks for a megabyte at a time, more only for a value longer than that (as
    /// the text of 3 MB above): the coded content of about 3.5 MB is never held whole.
    @Test func pulledFromASourceOnlyThePartBeingReadIsHeld() throws {
        let small = (0..<500_000).map { Inner(day: Int64($0) << 20, note: nil) }
        let bytes = try CompactCoder.encode(small)
        #expect(bytes.count > 2_500_000)
        let source = Source(bytes, most: .max)
        #expect(try CompactCoder.decode([Inner].self, size: bytes.count, from: source.fill) == small)
        #expect(source.largestAsked == 1 << 20)
    }

    @Test func damagedDataPulledFromASourceIsRefused() throws {
        let bytes = try CompactCoder.encode(Inner(day: 300, note: "text"))
        // The source ends before the size it was said to hold; the size ends before the value.
        #expect(throws: CompactCodingError.truncated) {
            try CompactCoder.decode(Inner.self, size: bytes.count, from: Source(Array(bytes.dropLast()), most: 2).fill)
        }
        #expect(throws: CompactCodingError.truncated) {
            try CompactCoder.decode(Inner.self, size: bytes.count - 1, from: Source(bytes, most: 2).fill)
        }
        #expect(throws: CompactCodingError.trailingBytes) {
            try CompactCoder.decode(Inner.self, size: bytes.count + 1, from: Source(bytes + [0], most: 2).fill)
        }
        #expect(throws: CompactCodingError.self) {
            try CompactCoder.decode([Inner].self, size: 4, from: Source([0xff, 0xff, 0xff, 0x0f], most: 1).fill)
        }
    }
}

/// An array kept through the run is copied to its own size when it has room to spare in the
/// heap, and left as it is in a block with a mapping of its own, whose unwritten room takes no
/// memory.
@Suite("Fitted arrays")
struct FittedArrayTests {
    @Test func aSmallArrayWithRoomToSpareIsCopiedToItsSize() {
        var small: [Int64] = []
        small.reserveCapacity(1000)
        small += 0..<100
        let fitted = small.fitted()
        #expect(fitted == small)
        #expect(fitted.capacity < 200)
    }

    @Test func anArrayInABlockOfItsOwnIsLeftAsItIs() {
        var large: [Int64] = []
        large.reserveCapacity(FreedMemory.ownMappingBytes / 8 * 2)
        large += 0..<Int64(FreedMemory.ownMappingBytes / 8 / 2)
        let fitted = large.fitted()
        #expect(fitted == large)
        #expect(fitted.capacity == large.capacity)
        // Little room to spare: left as it is too, whatever its size.
        var tight: [Int64] = []
        tight.reserveCapacity(100)
        tight += 0..<95
        #expect(tight.fitted().capacity == tight.capacity)
    }
}
