/// A fast 64-bit hash of a byte string, eight bytes at a time (a multiply-xorshift mix with a
/// murmur-style finish). For hash tables and digests of our own data, not for security.
package enum FastHash {
    @inline(__always)
    package static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0x243F_6A88_85A3_08D3) -> UInt64 {
        let count = bytes.count
        var h = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress else { return finish(h) }
        var index = 0
        while index + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            h = (h ^ (word &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            index += 8
        }
        if index < count {
            var word: UInt64 = 0
            var shift: UInt64 = 0
            while index < count {
                word |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << shift
                shift += 8
                index += 1
            }
            h = (h ^ (word &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
        }
        return finish(h)
    }

    @inline(__always)
    static func finish(_ value: UInt64) -> UInt64 {
        var h = value
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 33)
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
