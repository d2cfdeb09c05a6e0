import Testing

@testable import Support
@testable import TestSupport

@Suite("SipHash")
struct SipHashTests {
    /// The SipHash paper's test vectors: SipHash-2-4, 64-bit output, key bytes 0 to 15.
    ///
    /// Message n is the bytes 0 to n-1; outputs are read as little-endian words.
    static let reference = SipHash(
        key0: 0x0706_0504_0302_0100, key1: 0x0f0e_0d0c_0b0a_0908, compressionRounds: 2, finalizationRounds: 4)

    @Test(arguments: [
        (0, UInt64(0x726f_db47_dd0e_0e31)), (1, 0x74f8_39c5_93dc_67fd), (7, 0xab02_00f5_8b01_d137),
        (8, 0x93f5_f579_9a93_2462), (15, 0xa129_ca61_49be_45e5), (63, 0x958a_324c_eb06_4572),
    ])
    func matchesTheReferenceVectors(length: Int, expected: UInt64) {
        let message = (0..<length).map { UInt8($0) }
        #expect(message.withUnsafeBytes { Self.reference.hash64($0) } == expected)
    }

    @Test func aRandomKeyGivesOtherHashesForTheSameBytes() {
        let bytes = Array("req-000000001".utf8)
        let first = bytes.withUnsafeBytes { SipHash.randomlyKeyed().hash128($0) }
        let second = bytes.withUnsafeBytes { SipHash.randomlyKeyed().hash128($0) }
        #expect(first != second)
        let keyed = SipHash(key0: 1, key1: 2)
        #expect(bytes.withUnsafeBytes { keyed.hash128($0) } == bytes.withUnsafeBytes { keyed.hash128($0) })
    }
}
