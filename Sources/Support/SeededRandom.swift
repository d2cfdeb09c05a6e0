/// SplitMix64: a small, fast generator whose sequence depends only on its seed, on every
/// platform and Swift version, so generated datasets are byte-identical for a seed.
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `0..<bound` (bound > 0).
    ///
    /// Modulo bias is irrelevant at these sizes.
    package mutating func below(_ bound: Int64) -> Int64 {
        Int64(next() % UInt64(bound))
    }

    package mutating func between(_ low: Int64, _ high: Int64) -> Int64 {
        low + below(high - low + 1)
    }

    /// True with probability `percent` / 100.
    package mutating func chance(_ percent: Int) -> Bool {
        below(100) < Int64(percent)
    }

    /// Picks an index by integer weights.
    package mutating func weighted(_ weights: [Int]) -> Int {
        var roll = below(Int64(weights.reduce(0, +)))
        for (index, weight) in weights.enumerated() {
            if roll < Int64(weight) { return index }
            roll -= Int64(weight)
        }
        return weights.count - 1
    }

    /// A stable shuffle (Fisher-Yates with this generator).
    package mutating func shuffle<T>(_ items: inout [T]) {
        guard items.count > 1 else { return }
        for index in stride(from: items.count - 1, to: 0, by: -1) {
            let other = Int(below(Int64(index + 1)))
            items.swapAt(index, other)
        }
    }
}
