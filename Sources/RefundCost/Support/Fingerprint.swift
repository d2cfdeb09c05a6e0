/// A 128-bit FNV-1a digest of a byte string.
///
/// Used where a set must remember very many keys (request ids) without storing them:
/// 16 bytes a key, and a chance of two different keys colliding that stays below 10⁻²⁰
/// even at a billion keys.
package struct Fingerprint: Sendable, Hashable {
    let value: UInt128

    private static let offsetBasis: UInt128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d
    private static let prime: UInt128 = 0x0000_0000_0100_0000_0000_0000_0000_013B

    package init(_ bytes: UnsafeRawBufferPointer) {
        var hash = Fingerprint.offsetBasis
        for byte in bytes {
            hash ^= UInt128(byte)
            hash &*= Fingerprint.prime
        }
        value = hash
    }
}
