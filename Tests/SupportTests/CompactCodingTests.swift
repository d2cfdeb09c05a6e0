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
}
