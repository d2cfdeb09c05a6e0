/// SipHash (Aumasson and Bernstein), a keyed hash built to resist inputs crafted to collide:
/// without the key, nobody can choose two byte strings that hash alike.
///
/// The request-id registry uses it with a key drawn from the system's random source for every run, so
/// a file cannot be made to drop a real row as a "duplicate" (a plain fast hash can be).
///
/// `compressionRounds`/`finalizationRounds` are 1/3 for the registry (as Swift's own `Hasher`
/// and Rust use), 2/4 for the reference test vectors.
package struct SipHash: Sendable, Hashable, Codable {
    package let key0: UInt64
    package let key1: UInt64
    let compressionRounds: Int
    let finalizationRounds: Int

    package init(key0: UInt64, key1: UInt64, compressionRounds: Int = 1, finalizationRounds: Int = 3) {
        self.key0 = key0
        self.key1 = key1
        self.compressionRounds = compressionRounds
        self.finalizationRounds = finalizationRounds
    }

    /// A key no input can predict: from the operating system's random source.
    package static func randomlyKeyed() -> SipHash {
        var generator = SystemRandomNumberGenerator()
        return SipHash(key0: generator.next(), key1: generator.next())
    }

    /// The 64-bit hash of `bytes`.
    @inlinable
    package func hash64(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var state = State(key0: key0, key1: key1, wide: false)
        absorb(bytes, into: &state)
        return state.finish(first: true, rounds: finalizationRounds)
    }

    /// The 128-bit hash of `bytes` (SipHash's 16-byte output mode).
    @inlinable
    package func hash128(_ bytes: UnsafeRawBufferPointer) -> UInt128 {
        var state = State(key0: key0, key1: key1, wide: true)
        absorb(bytes, into: &state)
        let high = state.finish(first: true, rounds: finalizationRounds)
        let low = state.finish(first: false, rounds: finalizationRounds)
        return UInt128(high) << 64 | UInt128(low)
    }

    /// A hash fed piece by piece (words and byte strings), for digests of several fields.
    package struct Stream {
        @usableFromInline var state: State
        @usableFromInline let hash: SipHash
        /// Bytes not yet compressed, low byte first, and how many.
        @usableFromInline var tail: UInt64 = 0
        @usableFromInline var tailCount: UInt64 = 0
        @usableFromInline var length: UInt64 = 0

        @inlinable
        package init(_ hash: SipHash) {
            self.hash = hash
            state = State(key0: hash.key0, key1: hash.key1, wide: false)
        }

        @inlinable
        package mutating func combine(_ word: UInt64) {
            if tailCount == 0 {
                state.compress(word, hash.compressionRounds)
                length &+= 8
                return
            }
            for shift in stride(from: UInt64(0), to: 64, by: 8) { combine(byte: UInt8(truncatingIfNeeded: word >> shift)) }
        }

        /// A byte string and its length, so that ("ab","c") and ("a","bc") differ.
        @inlinable
        package mutating func combine(_ bytes: UnsafeRawBufferPointer) {
            combine(UInt64(bytes.count))
            for byte in bytes { combine(byte: byte) }
        }

        @inlinable
        mutating func combine(byte: UInt8) {
            tail |= UInt64(byte) << (tailCount * 8)
            tailCount += 1
            length &+= 1
            if tailCount == 8 {
                state.compress(tail, hash.compressionRounds)
                tail = 0
                tailCount = 0
            }
        }

        @inlinable
        package mutating func finish() -> UInt64 {
            state.compress(tail | (length << 56), hash.compressionRounds)
            return state.finish(first: true, rounds: hash.finalizationRounds)
        }
    }

    @inlinable
    func absorb(_ bytes: UnsafeRawBufferPointer, into state: inout State) {
        let count = bytes.count
        var index = 0
        if let base = bytes.baseAddress {
            while index + 8 <= count {
                state.compress(
                    UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)), compressionRounds)
                index += 8
            }
        }
        var last = UInt64(truncatingIfNeeded: count) << 56
        var shift: UInt64 = 0
        while index < count {
            last |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        state.compress(last, compressionRounds)
    }

    @usableFromInline
    struct State {
        @usableFromInline var v0: UInt64
        @usableFromInline var v1: UInt64
        @usableFromInline var v2: UInt64
        @usableFromInline var v3: UInt64
        /// 128-bit output mode.
        @usableFromInline let wide: Bool

        @inlinable
        init(key0: UInt64, key1: UInt64, wide: Bool) {
            self.wide = wide
            v0 = key0 ^ 0x736f_6d65_7073_6575
            v1 = key1 ^ 0x646f_7261_6e64_6f6d ^ (wide ? 0xee : 0)
            v2 = key0 ^ 0x6c79_6765_6e65_7261
            v3 = key1 ^ 0x7465_6462_7974_6573
        }

        @inlinable
        mutating func compress(_ word: UInt64, _ rounds: Int) {
            v3 ^= word
            for _ in 0..<rounds { round() }
            v0 ^= word
        }

        /// The first output word (`v2 ^= 0xff`, or `0xee` in 128-bit mode), or the second (`v1 ^= 0xdd`).
        @inlinable
        mutating func finish(first: Bool, rounds: Int) -> UInt64 {
            if first {
                v2 ^= wide ? 0xee : 0xff
            } else {
                v1 ^= 0xdd
            }
            for _ in 0..<rounds { round() }
            return v0 ^ v1 ^ v2 ^ v3
        }

        @inlinable
        mutating func round() {
            v0 &+= v1
            v1 = v1.rotatedLeft(13) ^ v0
            v0 = v0.rotatedLeft(32)
            v2 &+= v3
            v3 = v3.rotatedLeft(16) ^ v2
            v0 &+= v3
            v3 = v3.rotatedLeft(21) ^ v0
            v2 &+= v1
            v1 = v1.rotatedLeft(17) ^ v2
            v2 = v2.rotatedLeft(32)
        }
    }
}

extension UInt64 {
    @inlinable
    func rotatedLeft(_ count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}
