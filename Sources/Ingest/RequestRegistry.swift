import Support
import Synchronization

/// Remembers every request id seen in the cost files, shared by the threads that read them.
///
/// Each id keeps a digest of the rest of its row. A repeat with the same digest is the same
/// event logged twice: which copy is dropped changes nothing. A repeat whose row differs is a
/// conflict: then which one counts depends on reading order, so a parallel run reads again in
/// file order, where the first one wins.
package final class RequestRegistry: Sendable {
    package enum Claim {
        case first
        case repeated
        case conflicting
    }

    /// A lock cannot live in an array by value: each shard is an object holding one.
    private final class Shard: Sendable {
        let seen = Mutex(FingerprintTable())
    }

    private let shards: [Shard]

    package init(shards: Int = 64) {
        self.shards = (0..<shards).map { _ in Shard() }
    }

    package func claim(_ request: Fingerprint, content: UInt64) -> Claim {
        // The high bits pick the shard, the low bits the slot inside it.
        let shard = Int(truncatingIfNeeded: request.value >> 64) & (shards.count - 1)
        return shards[shard].seen.withLock { seen in
            guard let existing = seen.insert(request.value, payload: content) else { return .first }
            return existing == content ? .repeated : .conflicting
        }
    }
}
