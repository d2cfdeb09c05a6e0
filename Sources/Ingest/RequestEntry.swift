import Support

/// What the request-id registry keeps of one cost row with a `request_id`: 72 bits of the id's
/// keyed SipHash (8 that pick the registry's shard, 64 stored in the shard's table) and 32 bits
/// of a keyed digest of the rest of the row; the table stores 12 bytes of it.
///
/// The key is drawn at random for every run, so no input can be crafted to make two different
/// ids (or contents) look alike. With the registry's 64 shards, 70 of the bits tell ids apart:
/// honest ids collide with odds of about n² / 2⁷¹, one in 150 million at four million distinct
/// ids, one in 2,400 at a billion. Nothing the key changes reaches the output unless such a
/// collision happens. Two rows with one id and different contents look alike one time in four
/// billion: the repeat is then dropped as a copy instead of being reported as a conflict.
package struct RequestEntry: Sendable, Hashable {
    /// The id bits that pick a shard.
    package let route: UInt8
    /// The id bits a shard's table stores; never zero (zero marks an empty slot).
    package let key: UInt64
    package let content: UInt32

    package init(id: UInt128, content: UInt64) {
        route = UInt8(truncatingIfNeeded: id >> 120)
        let low = UInt64(truncatingIfNeeded: id)
        key = low == 0 ? 1 : low
        self.content = UInt32(truncatingIfNeeded: content)
    }

    package init(route: UInt8, key: UInt64, content: UInt32) {
        self.route = route
        self.key = key
        self.content = content
    }

    /// The same id with another row's content: how a claim settled elsewhere is seeded.
    package func withContent(of other: RequestEntry) -> RequestEntry {
        RequestEntry(route: route, key: key, content: other.content)
    }

    /// Every bit kept of the id, to compare ids claimed in different partials.
    package var idBits: UInt128 { UInt128(route) << 64 | UInt128(key) }
}

extension RequestEntry: Codable {
    /// Two 64-bit numbers (the key; the route above the content): the compact form of a
    /// partial's claims and of seeds.
    package init(from decoder: any Decoder) throws {
        let halves = try decoder.singleValueContainer().decode([UInt64].self)
        guard halves.count == 2, halves[0] != 0, halves[1] >> 40 == 0 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a request entry"))
        }
        self.init(
            route: UInt8(truncatingIfNeeded: halves[1] >> 32), key: halves[0], content: UInt32(truncatingIfNeeded: halves[1]))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode([key, UInt64(route) << 32 | UInt64(content)])
    }
}
