import Support

/// A 128-bit digest of a byte string: two independent 64-bit hashes.
///
/// Used where a set must remember very many keys (request ids) without storing them:
/// 16 bytes a key, with a chance of two different keys colliding far below one in a
/// billion at a billion keys.
package struct Fingerprint: Sendable, Hashable {
    package let value: UInt128

    @inline(__always)
    package init(_ bytes: UnsafeRawBufferPointer) {
        let high = FastHash.hash(bytes, seed: 0x1319_8A2E_0370_7344)
        let low = FastHash.hash(bytes, seed: 0xA409_3822_299F_31D0)
        value = UInt128(high) << 64 | UInt128(low)
    }
}

/// A set of 128-bit fingerprints, each with a 64-bit payload, open-addressed: the fingerprint
/// is already a good hash, so its low bits pick the slot directly.
struct FingerprintTable {
    /// Key and payload side by side: one cache line read per probe.
    private struct Entry {
        var key: UInt128
        var payload: UInt64
    }

    private var entries: [Entry]
    private var mask: Int
    private(set) var count = 0

    init() {
        entries = Array(repeating: Entry(key: 0, payload: 0), count: 1024)
        mask = 1023
    }

    /// The payload stored for `key`, storing `payload` when the key is new (then nil).
    mutating func insert(_ key: UInt128, payload: UInt64) -> UInt64? {
        let stored = key == 0 ? 1 : key
        if (count + 1) * 4 > entries.count * 3 { grow() }
        let mask = self.mask
        let found = entries.withUnsafeMutableBufferPointer { entries -> UInt64? in
            var slot = Int(truncatingIfNeeded: stored) & mask
            while true {
                let existing = entries[slot].key
                if existing == 0 {
                    entries[slot] = Entry(key: stored, payload: payload)
                    return nil
                }
                if existing == stored { return entries[slot].payload }
                slot = (slot + 1) & mask
            }
        }
        if found == nil { count += 1 }
        return found
    }

    private mutating func grow() {
        let old = entries
        entries = Array(repeating: Entry(key: 0, payload: 0), count: old.count * 2)
        mask = entries.count - 1
        for entry in old where entry.key != 0 {
            var slot = Int(truncatingIfNeeded: entry.key) & mask
            while entries[slot].key != 0 { slot = (slot + 1) & mask }
            entries[slot] = entry
        }
    }
}
