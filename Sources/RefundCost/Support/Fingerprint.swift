/// A 128-bit digest of a byte string: two independent 64-bit hashes.
///
/// Used where a set must remember very many keys (request ids) without storing them:
/// 16 bytes a key, with a chance of two different keys colliding far below one in a
/// billion at a billion keys.
package struct Fingerprint: Sendable, Hashable {
    let value: UInt128

    @inline(__always)
    package init(_ bytes: UnsafeRawBufferPointer) {
        let high = FastHash.hash(bytes, seed: 0x1319_8A2E_0370_7344)
        let low = FastHash.hash(bytes, seed: 0xA409_3822_299F_31D0)
        value = UInt128(high) << 64 | UInt128(low)
    }
}
