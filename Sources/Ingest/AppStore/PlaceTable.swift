import Support

/// An id whose text most often has a smaller exact form.
///
/// A transaction id's number, a UUID's bits: two ids with a compact form are the same id exactly
/// when their forms are equal.
protocol CompactKey {
    associatedtype Compact: Hashable & Sendable
    /// The compact form of `id`, or nil when it has none.
    static func compact(_ id: String) -> Compact?
    /// A second compact form, for an id that has no first one (an uppercase UUID), kept in a
    /// table of its own; nil when it has neither (it is then kept as text).
    static func otherCompact(_ id: String) -> Compact?
}

extension CompactKey {
    static func otherCompact(_ id: String) -> Compact? { nil }
}

/// Where each id is, for the reader's tables over everything it reads.
///
/// The input's transactions by id, the reader's notifications by `notificationUUID`: an id with
/// a compact form is kept as that form alone, the others as their bytes. Ids are told apart by
/// their bytes, as docs/inputs.md says ("Identifiers"): one text in two Unicode forms is two ids.
///
/// A table grown by doubling holds up to about three slots an id. A slot of a compact form and
/// a 4-byte place is 12 bytes for a transaction id and 20 for a UUID; a key holding the form
/// beside an optional text, with an `Int` place, would take 32 and 40: about 170 MB more for both
/// tables at a million accounts, at the end of reading. (A place past `Int32.max`, two billion
/// records, would stop the process: a hundred million accounts hold about 160 million.)
struct PlaceTable<Key: CompactKey>: Sendable {
    private var compact: [Key.Compact: Int32] = [:]
    /// The ids that have only the second compact form: two ids with the same bits, one in each
    /// table, are two ids.
    private var otherCompact: [Key.Compact: Int32] = [:]
    /// The other ids, by their bytes.
    private var texts: [BytesKey: Int32] = [:]

    init() {}

    var count: Int { compact.count + otherCompact.count + texts.count }

    /// The place `id` already has, or nil when it had none and is given `place`.
    ///
    /// `place` may be any value, -1 too. One lookup either way.
    mutating func claim(_ id: String, place: Int) -> Int? {
        if let form = Key.compact(id) { return Self.claim(&compact[form, default: Self.absent], place: place) }
        if let form = Key.otherCompact(id) { return Self.claim(&otherCompact[form, default: Self.absent], place: place) }
        return Self.claim(&texts[BytesKey(id), default: Self.absent], place: place)
    }

    /// What a slot holds until it is claimed: no place is this low.
    private static var absent: Int32 { .min }

    @inline(__always)
    private static func claim(_ slot: inout Int32, place: Int) -> Int? {
        guard slot == absent else { return Int(slot) }
        slot = Int32(place)
        return nil
    }
}
