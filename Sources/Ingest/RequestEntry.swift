import Support

/// What the request-id registry keeps of one cost row with a `request_id`, in 16 bytes: 80
/// bits of the id's keyed SipHash and 48 bits of a keyed digest of the rest of the row.
///
/// The key is drawn at random for every run, so no input can be crafted to make two different
/// ids (or contents) look alike; honest ids collide with odds of about n² / 2⁸¹, one in two
/// million at a billion distinct ids. Nothing the key changes reaches the output unless such a
/// collision happens.
package struct RequestEntry: Sendable, Hashable {
    /// `id << 48 | content`; never zero (zero marks an empty slot).
    let packed: UInt128

    static let contentBits = 48
    static let contentMask = UInt128(1) << contentBits - 1

    init(id: UInt128, content: UInt64) {
        let idBits = (id >> 48) | 1
        packed = idBits << 48 | UInt128(content) & RequestEntry.contentMask
    }

    var id: UInt128 { packed >> RequestEntry.contentBits }
    var content: UInt64 { UInt64(truncatingIfNeeded: packed & RequestEntry.contentMask) }
}

extension RequestEntry: Codable {
    init(packed: UInt128) { self.packed = packed }

    /// Two 64-bit halves: the compact form of a partial's claims and of seeds.
    package init(from decoder: any Decoder) throws {
        let halves = try decoder.singleValueContainer().decode([UInt64].self)
        guard halves.count == 2 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a request entry"))
        }
        packed = UInt128(halves[0]) << 64 | UInt128(halves[1])
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode([UInt64(truncatingIfNeeded: packed >> 64), UInt64(truncatingIfNeeded: packed)])
    }

    /// The same id with another row's content: how a claim settled elsewhere is seeded.
    package func withContent(of other: RequestEntry) -> RequestEntry {
        RequestEntry(packed: (packed >> RequestEntry.contentBits) << RequestEntry.contentBits | UInt128(other.content))
    }

    package var idBits: UInt128 { id }
}
