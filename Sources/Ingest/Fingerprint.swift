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

/// An open-addressed set of request entries keyed by their id bits: one 16-byte slot per entry.
struct RequestTable {
    private var slots: [UInt128]
    private var mask: Int
    private(set) var count = 0

    init() {
        slots = Array(repeating: 0, count: 1024)
        mask = 1023
    }

    /// The entry already stored for `entry`'s id, storing `entry` when the id is new (then nil).
    mutating func insert(_ entry: RequestEntry) -> RequestEntry? {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let id = entry.id
        let mask = self.mask
        let found = slots.withUnsafeMutableBufferPointer { slots -> RequestEntry? in
            var slot = Int(truncatingIfNeeded: id) & mask
            while true {
                let existing = slots[slot]
                if existing == 0 {
                    slots[slot] = entry.packed
                    return nil
                }
                if existing >> RequestEntry.contentBits == id { return RequestEntry(packed: existing) }
                slot = (slot + 1) & mask
            }
        }
        if found == nil { count += 1 }
        return found
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        mask = slots.count - 1
        for packed in old where packed != 0 {
            var slot = Int(truncatingIfNeeded: packed >> RequestEntry.contentBits) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = packed
        }
    }
}

extension RequestEntry: Codable {
    fileprivate init(packed: UInt128) { self.packed = packed }

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

/// A request id a reading claimed first, with the line of its row: what a partial tells the
/// merge, so that ids claimed in more than one partial can be settled.
package struct RequestClaim: Sendable, Hashable, Codable {
    package var entry: RequestEntry
    package var line: Int

    package init(entry: RequestEntry, line: Int) {
        self.entry = entry
        self.line = line
    }
}
