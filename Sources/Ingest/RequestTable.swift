import Support

/// An open-addressed set of request entries keyed by their id bits: one 16-byte slot per entry,
/// with linear probing.
///
/// The table is kept between 53% and 80% full: it grows by half when it passes 80%, to any
/// size (not only powers of two), so that a hundred million ids do not sit in a table twice
/// their size, as doubling would leave them just after it grew.
struct RequestTable {
    static let slotBytes = MemoryLayout<UInt128>.stride
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

    /// How many slots there are: it changes only when the table grows, and the slots move.
    var slotCount: Int { slots.count }

    /// Where the slots lie and how many there are (they move when the table grows).
    var slotsAddress: (base: Int, count: Int) {
        slots.withUnsafeBufferPointer { (Int(bitPattern: $0.baseAddress), $0.count) }
    }

    /// Where an id's probe starts: its low 64 bits scaled to the table's size (a multiply, not
    /// a division, so any size works).
    @inline(__always)
    static func home(_ id: UInt128, in size: Int) -> Int {
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
