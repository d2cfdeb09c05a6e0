import Support
import Synchronization

/// Remembers every request id seen in the cost files, shared by the threads that read them.
///
/// Each id keeps a digest of the rest of its row, compared by column meaning (the parsed
/// time, account, category, cost, currency, quantity and unit), so files with their columns
/// in another order agree. A repeat with the same digest is the same event logged twice:
/// which copy is dropped changes nothing. A repeat whose row differs is a conflict: then which
/// one counts depends on reading order, so a parallel run reads again in file order, where
/// the first one wins.
package final class RequestRegistry: Sendable {
    package enum Claim {
        case first
        case repeated
        case conflicting
    }

    /// A lock cannot live in an array by value: each shard is an object holding one.
    private final class Shard: Sendable {
        let seen = Mutex(RequestTable())
    }

    private let shards: [Shard]
    private let hash: SipHash
    /// True when the reading tells which ids it claimed first (a partial of a distributed run).
    package let recordsClaims: Bool

    /// `seeds` are ids already claimed by rows that come earlier in another part of the run:
    /// every row with one of them is a repeat (or a conflict, when its content differs).
    package init(shards: Int = 64, hash: SipHash = .randomlyKeyed(), seeds: [RequestEntry] = [], recordsClaims: Bool = false) {
        self.shards = (0..<shards).map { _ in Shard() }
        self.hash = hash
        self.recordsClaims = recordsClaims
        for seed in seeds { _ = claim(seed) }
    }

    /// What the registry keeps of `row` with `requestID`.
    package func entry(_ requestID: UnsafeRawBufferPointer, for row: CostRow) -> RequestEntry {
        RequestEntry(id: hash.hash128(requestID), content: contentDigest(row))
    }

    /// Claims a request id with its row's content: the first row with an id counts, later
    /// ones are repeats (or conflicts, when their content differs).
    package func claim(_ entry: RequestEntry) -> Claim {
        // The high id bits pick the shard, the low ones the slot inside it.
        let shard = Int(truncatingIfNeeded: entry.id >> 70) & (shards.count - 1)
        return shards[shard].seen.withLock { seen in
            guard let existing = seen.insert(entry) else { return .first }
            return existing.content == entry.content ? .repeated : .conflicting
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
