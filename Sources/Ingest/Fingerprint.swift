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

/// An open-addressed set of request entries keyed by their id bits: one 16-byte slot per entry,
/// with linear probing.
///
/// The table is kept between 53% and 80% full: it grows by half when it passes 80%, to any
/// size (not only powers of two), so that a hundred million ids do not sit in a table twice
/// their size, as doubling would leave them just after it grew.
struct RequestTable {
    private var slots: [UInt128]
    private(set) var count = 0

    init() {
        slots = Array(repeating: 0, count: 1024)
    }

    /// The entry already stored for `entry`'s id, storing `entry` when the id is new (then nil).
    mutating func insert(_ entry: RequestEntry) -> RequestEntry? {
        if (count + 1) * 5 > slots.count * 4 { grow() }
        let id = entry.id
        let found = slots.withUnsafeMutableBufferPointer { slots -> RequestEntry? in
            var slot = RequestTable.home(id, in: slots.count)
            while true {
                let existing = slots[slot]
                if existing == 0 {
                    slots[slot] = entry.packed
                    return nil
                }
                if existing >> RequestEntry.contentBits == id { return RequestEntry(packed: existing) }
                slot += 1
                if slot == slots.count { slot = 0 }
            }
        }
        if found == nil { count += 1 }
        return found
    }

    /// Where an id's probe starts: its low 64 bits scaled to the table's size (a multiply, not
    /// a division, so any size works).
    @inline(__always)
    private static func home(_ id: UInt128, in size: Int) -> Int {
        Int(truncatingIfNeeded: UInt64(truncatingIfNeeded: id).multipliedFullWidth(by: UInt64(size)).high)
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count + old.count / 2)
        slots.withUnsafeMutableBufferPointer { slots in
            for packed in old where packed != 0 {
                var slot = RequestTable.home(packed >> RequestEntry.contentBits, in: slots.count)
                while slots[slot] != 0 {
                    slot += 1
                    if slot == slots.count { slot = 0 }
                }
                slots[slot] = packed
            }
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
