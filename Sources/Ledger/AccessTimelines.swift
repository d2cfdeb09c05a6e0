import Ingest
import Support

/// What an account had at one moment (docs/domain.md rules 1, 5 and 6), as the ledger answers it.
package enum Access: Sendable, Hashable {
    /// Entitled, through this granting transaction (PURCHASED before FAMILY_SHARED, then the
    /// latest `purchaseDate`, then the smallest `transactionId`).
    case entitled(transaction: Int)
    /// Not entitled, but this transaction's grant starts within the premature window.
    case premature(transaction: Int)
    /// Not entitled; this transaction's access ended most recently.
    case ended(transaction: Int)
    /// In a billing grace of this transaction that no renewal paid for (docs/domain.md rule 13).
    case billingGrace(transaction: Int)
    /// Linked, but no access before or around this moment.
    case none
}

/// Every account's access as sorted segments `[start, next start)`, all accounts in one flat
/// array: a lookup is one binary search over the account's few segments, on the per-cost-row path.
package struct AccessTimelines: Sendable {
    /// What a segment says, stored in one byte beside its start and transaction.
    private enum State: UInt8, Sendable {
        case none, entitled, premature, ended, billingGrace
    }

    private struct Segment: Sendable {
        var start: Int64
        var state: State
        var transaction: Int32
    }

    private var segments: [Segment] = []
    /// Account `a`'s segments are `segments[offsets[a] ..< offsets[a + 1]]`.
    private var offsets: [Int] = [0]

    package init() {}

    package func access(account: Int, at t: Timestamp) -> Access {
        var low = offsets[account]
        var high = offsets[account + 1]
        // The last segment starting at or before t.
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].start <= t.milliseconds { low = middle + 1 } else { high = middle }
        }
        guard low > offsets[account] else { return .none }
        let segment = segments[low - 1]
        let transaction = Int(segment.transaction)
        switch segment.state {
        case .entitled: return .entitled(transaction: transaction)
        case .premature: return .premature(transaction: transaction)
        case .ended: return .ended(transaction: transaction)
        case .billingGrace: return .billingGrace(transaction: transaction)
        case .none: return .none
        }
    }

    /// The account's segments, for `explain`.
    package func segments(account: Int) -> [(start: Timestamp, access: Access)] {
        (offsets[account]..<offsets[account + 1]).map { index in
            let start = Timestamp(milliseconds: segments[index].start)
            return (start, access(account: account, at: start))
        }
    }

    /// Lets go of the room the segments grew by, once every account's are appended.
    mutating func fit() {
        segments = segments.fitted()
        offsets = offsets.fitted()
    }

    /// Adds the next account's timeline, computed from its transactions.
    ///
    /// The answer only changes where a grant starts or ends, or where the premature window
    /// before a start opens, so it is worked out once at each of those points.
    mutating func append(grants: [LedgerTransaction], indices: [Int], prematureWindow: TimeSpan) {
        var points = Set<Int64>()
        for (grant, _) in zip(grants, indices) where grant.grantsAccess {
            points.insert(grant.grantStart.milliseconds)
            points.insert(grant.grantStart.milliseconds - prematureWindow.milliseconds)
            if let end = grant.grantEnd { points.insert(end.milliseconds) }
            if let end = grant.end?.at { points.insert(end.milliseconds) }
            if let grace = grant.grace { points.insert(grace.end.milliseconds) }
        }
        var last: (state: State, transaction: Int32)?
        for point in points.sorted() {
            let answer = AccessTimelines.answer(at: Timestamp(milliseconds: point), grants, indices, prematureWindow)
            if let last, last == answer { continue }
            segments.append(Segment(start: point, state: answer.state, transaction: answer.transaction))
            last = answer
        }
        offsets.append(segments.count)
    }

    private static func answer(
        at t: Timestamp, _ grants: [LedgerTransaction], _ indices: [Int], _ window: TimeSpan
    ) -> (state: State, transaction: Int32) {
        if let entitled = entitled(at: t, grants, indices) { return (.entitled, Int32(indices[entitled])) }
        if let grace = unpaidGrace(at: t, grants) { return (.billingGrace, Int32(indices[grace])) }
        var upcoming: Int?
        for (position, grant) in grants.enumerated()
        where grant.grantsAccess && grant.grantStart > t && grant.grantStart.milliseconds - t.milliseconds <= window.milliseconds
        {
            if upcoming.map({ Self.startsBefore(grant, grants[$0]) }) ?? true {
                upcoming = position
            }
        }
        if let upcoming { return (.premature, Int32(indices[upcoming])) }
        var ended: Int?
        for (position, grant) in grants.enumerated() where grant.grantsAccess {
            guard let end = grant.end?.at, end <= t else { continue }
            if ended.map({ other in
                let otherEnd = grants[other].end?.at ?? end
                return end > otherEnd || (end == otherEnd && grantPrecedes(grant, grants[other]))
            }) ?? true {
                ended = position
            }
        }
        if let ended { return (.ended, Int32(indices[ended])) }
        // No transaction: the state says so, and `access(account:at:)` never reads this one.
        return (.none, 0)
    }

    /// The granting transaction at `t` (a position in `grants`): a grant in force, or the
    /// renewal that paid for a billing grace `t` falls in (docs/domain.md rule 13), whichever comes
    /// first in rule 6's order.
    private static func entitled(at t: Timestamp, _ grants: [LedgerTransaction], _ indices: [Int]) -> Int? {
        var best: Int?
        func consider(_ position: Int) {
            if best.map({ grantPrecedes(grants[position], grants[$0]) }) ?? true { best = position }
        }
        for (position, grant) in grants.enumerated() {
            if grant.grants(at: t) { consider(position) }
            if let grace = grant.grace, grace.contains(t), let renewal = grace.recoveredBy,
                let paying = indices.firstIndex(of: renewal)
            {
                consider(paying)
            }
        }
        return best
    }

    /// A billing grace `t` falls in that no renewal paid for.
    private static func unpaidGrace(at t: Timestamp, _ grants: [LedgerTransaction]) -> Int? {
        var best: Int?
        for (position, grant) in grants.enumerated() {
            guard let grace = grant.grace, grace.recoveredBy == nil, grace.contains(t) else { continue }
            if best.map({ grantPrecedes(grant, grants[$0]) }) ?? true { best = position }
        }
        return best
    }

    /// The grant that starts first; on the same start, the lower transaction id.
    static func startsBefore(_ a: LedgerTransaction, _ b: LedgerTransaction) -> Bool {
        a.grantStart != b.grantStart ? a.grantStart < b.grantStart : TransactionID.precedes(a.id, b.id)
    }

    /// docs/domain.md rule 6's order for the granting transaction.
    static func grantPrecedes(_ a: LedgerTransaction, _ b: LedgerTransaction) -> Bool {
        if a.ownership != b.ownership { return a.ownership == .purchased }
        if a.grantStart != b.grantStart { return a.grantStart > b.grantStart }
        return TransactionID.precedes(a.id, b.id)
    }
}

/// Apple's transaction ids are decimal strings: they order as numbers when both are (up to
/// 19 digits), numbers before anything else, and by bytes otherwise and on a tie ("01" before
/// "1").
///
/// The one ordering of transaction ids everywhere.
package enum TransactionID {
    package struct SortKey: Comparable {
        var number: UInt64
        var text: String

        package static func < (a: SortKey, b: SortKey) -> Bool {
            a.number != b.number ? a.number < b.number : a.text.bytesPrecede(b.text)
        }
    }

    package static func sortKey(_ id: String) -> SortKey {
        let isNumber = id.utf8.count <= 19 && !id.isEmpty && id.utf8.allSatisfy { decimalDigit($0) != nil }
        return SortKey(number: isNumber ? UInt64(id) ?? .max : .max, text: id)
    }

    package static func precedes(_ a: String, _ b: String) -> Bool {
        sortKey(a) < sortKey(b)
    }

    /// The number `id` orders by (`UInt64.max` when it is not one): worked out once for ids
    /// compared many times, with `precedes(_:_:_:_:)`.
    package static func number(_ id: String) -> UInt64 { sortKey(id).number }

    /// Whether `a` (whose `number` is `aNumber`) orders before `b` (whose number is `bNumber`).
    package static func precedes(_ a: String, _ aNumber: UInt64, _ b: String, _ bNumber: UInt64) -> Bool {
        aNumber != bNumber ? aNumber < bNumber : a.bytesPrecede(b)
    }
}
