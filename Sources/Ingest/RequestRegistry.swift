import Support
import Synchronization

/// Remembers every request id seen in the cost files, shared by the threads that read them.
///
/// Each id keeps a digest of the rest of its row, compared by column meaning (the parsed
/// time, account, category, cost, currency, quantity and unit), so files with their columns
/// in another order agree. A repeat with the same digest is the same event logged twice:
/// which copy is dropped changes nothing, but for usage a pool pays for (the copy's place in
/// the file decides which row gets a left-over step). A repeat whose row differs is a conflict.
/// For a conflict or a pooled repeat, which copy counts depends on reading order, so a
/// parallel run reads again in file order, where the first one wins.
package final class RequestRegistry: Sendable {
    package enum Claim {
        case first
        case repeated
        case conflicting
    }

    /// A lock cannot live in an array by value: each shard is an object holding one.
    private final class Shard: Sendable {
        let seen = Mutex(RequestTable())
        /// Where the table's slots lie and how many, published under the lock when they move (the
        /// first claim, each growth) and read without it, only to prefetch: a stale pair costs a
        /// useless hint, nothing else.
        let slotsBase = Atomic<Int>(0)
        let slotCount = Atomic<Int>(0)
    }

    private let shards: [Shard]
    private let hash: SipHash
    /// True when the reading tells which ids it claimed first (a partial of a distributed run).
    package let recordsClaims: Bool
    /// True when the reading tells which ids its dropped rows repeated (respond's state).
    package let recordsRepeats: Bool
    /// True when each row that claims an id first carries the claim to the sink (`CostRow.claimed`)
    /// instead of the file's summary: a sink that spills keeps them off the heap.
    package let claimsGoToRows: Bool
    /// Ids claimed by an earlier reading, kept outside the tables (respond's state on disk).
    ///
    /// It gives the entry claimed for an id, when there was one.
    private let earlier: (@Sendable (RequestEntry) -> RequestEntry?)?
    /// The keys of the only ids that can come more than once, when a census of the reading's ids
    /// found them first: every other id is a first claim, and is not held.
    private let repeatedKeys: Set<UInt64>?

    /// A registry over `shards` tables (a power of two up to 256: the entry's route has 8 bits).
    ///
    /// `seeds` are ids already claimed by rows that come earlier in another part of the run:
    /// every row with one of them is a repeat (or a conflict, when its content differs).
    ///
    /// `earlier` answers for the ids of an earlier reading that are not seeded: a row with one of
    /// them is a repeat or a conflict, as if that reading came first.
    ///
    /// With `repeatedKeys` (keys under `hash` of every id the reading meets more than once, and
    /// perhaps of others), only those ids are held: the claims are the same, the tables smaller.
    package init(
        shards: Int = 64, hash: SipHash = .randomlyKeyed(), seeds: [RequestEntry] = [], recordsClaims: Bool = false,
        recordsRepeats: Bool = false, claimsGoToRows: Bool = false,
        earlier: (@Sendable (RequestEntry) -> RequestEntry?)? = nil, repeatedKeys: Set<UInt64>? = nil
    ) {
        precondition(shards > 0 && shards <= 256 && shards & (shards - 1) == 0, "shards: a power of two up to 256")
        precondition(repeatedKeys == nil || (seeds.isEmpty && earlier == nil), "a census knows the ids of one reading alone")
        self.repeatedKeys = repeatedKeys
        self.shards = (0..<shards).map { _ in Shard() }
        self.hash = hash
        self.recordsClaims = recordsClaims
        self.recordsRepeats = recordsRepeats
        self.claimsGoToRows = claimsGoToRows
        self.earlier = earlier
        for seed in seeds { _ = claim(seed) }
    }

    /// What the registry keeps of `row` with `requestID`.
    package func entry(_ requestID: UnsafeRawBufferPointer, for row: CostRow) -> RequestEntry {
        entry(hashed: hash.hash128(requestID), for: row)
    }

    /// The same, from the id's hash worked out earlier (`prefetch`).
    package func entry(hashed id: UInt128, for row: CostRow) -> RequestEntry {
        RequestEntry(id: id, content: contentDigest(row))
    }

    /// Hashes a request id and starts fetching the table slot its claim will look at first.
    ///
    /// The rest of the row is read while the slot comes in from memory: the table is far larger
    /// than the caches, so without the hint every claim waits for memory. Returns the hash.
    func prefetch(_ requestID: UnsafeRawBufferPointer) -> UInt128 {
        let id = hash.hash128(requestID)
        // With a census, the few ids held fit in the caches.
        if repeatedKeys != nil { return id }
        let entry = RequestEntry(id: id, content: 0)
        let shard = shards[Int(entry.route) & (shards.count - 1)]
        let base = shard.slotsBase.load(ordering: .relaxed)
        let count = shard.slotCount.load(ordering: .relaxed)
        if base != 0, count > 0, let address = UnsafeRawPointer(bitPattern: base) {
            Prefetch.forWriting(address + RequestTable.home(entry.key, in: count) * RequestTable.slotBytes)
        }
        return id
    }

    /// Claims a request id with its row's content: the first row with an id counts, later
    /// ones are repeats (or conflicts, when their content differs).
    package func claim(_ entry: RequestEntry) -> Claim {
        if let repeatedKeys, !repeatedKeys.contains(entry.key) { return .first }
        // Some id bits pick the shard, the others are the key inside it.
        let owner = shards[Int(entry.route) & (shards.count - 1)]
        // An id an earlier reading claimed: its first row's content is what this one compares with.
        let before = earlier?(entry)
        return owner.seen.withLock { seen in
            let existing = seen.insert(before ?? entry)
            if seen.slotCount != owner.slotCount.load(ordering: .relaxed) {
                owner.slotsBase.store(seen.slotsBase, ordering: .relaxed)
                owner.slotCount.store(seen.slotCount, ordering: .relaxed)
            }
            if let before { return (existing ?? before.content) == entry.content ? .repeated : .conflicting }
            guard let existing else { return .first }
            return existing == entry.content ? .repeated : .conflicting
        }
    }

    /// How many distinct ids are held, and the bytes their tables take.
    package var size: (ids: Int, bytes: Int) {
        shards.reduce(into: (0, 0)) { total, shard in
            shard.seen.withLock { table in
                total.0 += table.count
                total.1 += table.bytes
            }
        }
    }

    /// The row without its request id, by meaning: the same event written with its columns
    /// in another order, or its time in another form, digests alike.
    private func contentDigest(_ row: CostRow) -> UInt64 {
        var stream = SipHash.Stream(hash)
        stream.combine(UInt64(bitPattern: row.timestamp.milliseconds))
        stream.combine(UInt64(bitPattern: row.cost.nanos))
        stream.combine(UInt64(row.currency.packed))
        stream.combine(row.quantityNanos.map { UInt64(bitPattern: $0) } ?? UInt64.max)
        stream.combine(row.accountID)
        stream.combine(row.category)
        stream.combine(row.unit)
        return stream.finish()
    }
}
