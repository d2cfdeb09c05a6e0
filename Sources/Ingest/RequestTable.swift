import Support

/// An open-addressed set of request entries: 12 bytes a slot (an entry's 64-bit key and 32-bit
/// content), linear probing.
///
/// The table is kept between 75% and 85% full: past 85% it grows by an eighth, to any size (not
/// only powers of two), so it never holds more than 16 bytes per id. Growing that often moves
/// each entry about eight times over a run, but a table is one shard of the registry, small
/// enough to be rebuilt in cache.
struct RequestTable {
    /// A slot is three 32-bit words: the key's low and high halves, then the content.
    static let wordsPerSlot = 3
    static let slotBytes = wordsPerSlot * MemoryLayout<UInt32>.stride
    static let initialSlots = 1024
    private var words: [UInt32]
    private(set) var count = 0
    private(set) var slotCount: Int

    init() {
        slotCount = RequestTable.initialSlots
        words = Array(repeating: 0, count: RequestTable.initialSlots * RequestTable.wordsPerSlot)
    }

    /// The content already stored for `entry`'s key, storing `entry` when the key is new (then
    /// nil).
    mutating func insert(_ entry: RequestEntry) -> UInt32? {
        if (count + 1) * 20 > slotCount * 17 { grow() }
        let slots = slotCount
        let found = words.withUnsafeMutableBufferPointer { RequestTable.place(entry.key, entry.content, in: $0, slots: slots) }
        if found == nil { count += 1 }
        return found
    }

    /// Where the slots lie (they move when the table grows).
    var slotsBase: Int {
        words.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
    }

    /// How many bytes the slots take.
    var bytes: Int { words.count * MemoryLayout<UInt32>.stride }

    /// Where a key's probe starts: the key scaled to the table's size (a multiply, not a
    /// division, so any size works).
    @inline(__always)
    static func home(_ key: UInt64, in size: Int) -> Int {
        Int(truncatingIfNeeded: key.multipliedFullWidth(by: UInt64(size)).high)
    }

    /// The content stored with `key`, or nil after storing it with `content`.
    ///
    /// The probe starts at the key's home slot and stops at the key or at the first empty slot.
    @inline(__always)
    private static func place(_ key: UInt64, _ content: UInt32, in words: UnsafeMutableBufferPointer<UInt32>, slots: Int)
        -> UInt32?
    {
        let low = UInt32(truncatingIfNeeded: key)
        let high = UInt32(truncatingIfNeeded: key >> 32)
        var word = home(key, in: slots) * wordsPerSlot
        while true {
            let storedLow = words[word]
            let storedHigh = words[word + 1]
            if storedLow == 0 && storedHigh == 0 {
                words[word] = low
                words[word + 1] = high
                words[word + 2] = content
                return nil
            }
            if storedLow == low && storedHigh == high { return words[word + 2] }
            word += wordsPerSlot
            if word == words.count { word = 0 }
        }
    }

    private mutating func grow() {
        let old = words
        let oldSlots = slotCount
        slotCount = oldSlots + max(oldSlots / 8, 64)
        words = Array(repeating: 0, count: slotCount * RequestTable.wordsPerSlot)
        let slots = slotCount
        // A key's home grows with the key, so the old slots come in about the order of the new
        // ones: the new table fills from front to back.
        old.withUnsafeBufferPointer { old in
            words.withUnsafeMutableBufferPointer { words in
                for slot in 0..<oldSlots {
                    let word = slot * RequestTable.wordsPerSlot
                    let key = UInt64(old[word]) | UInt64(old[word + 1]) << 32
                    if key != 0 { _ = RequestTable.place(key, old[word + 2], in: words, slots: slots) }
                }
            }
        }
    }
}
