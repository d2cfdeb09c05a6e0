import Ingest
import Support

/// What the notifications say about each transaction, gathered once.
///
/// Only some notifications say anything here or to the figures (`Ledger.reads`): the others'
/// transaction copies count, the notifications themselves need not be kept.
struct NotificationFacts {
    /// Earliest notice of a revocation (REFUND or REVOKE, or any notification whose copy shows one).
    var revocationNotice: [String: (at: Timestamp, uuid: String)] = [:]
    /// Earliest `signedDate` of a copy that shows a revocation.
    var firstRevokedCopy: [String: Timestamp] = [:]
    /// Undated REVOKEs of FAMILY_SHARED transactions: the member left the family.
    var undatedExit: [String: (signed: Timestamp, notice: Timestamp, uuid: String)] = [:]
    var reversals: [String: [Timestamp]] = [:]

    /// One fact a notification can say of its transaction.
    ///
    /// Which notifications say it, and what is taken from one. The table is the one place both are written: what `init` reads
    /// and what `reads` keeps for it (the keep-filter before the ledger) cannot drift apart.
    private struct Fact {
        /// True when the notification says this fact (its transaction is given).
        let says: @Sendable (NotificationRecord, NotifiedTransaction) -> Bool
        let take: @Sendable (inout NotificationFacts, NotificationRecord, NotifiedTransaction) -> Void
    }

    /// The facts in the order a notification is asked: the first that it says is taken.
    private static let facts: [Fact] = [
        // A reversal (REFUND_REVERSED): access given back.
        Fact(says: { notification, _ in notification.type == .refundReversed }) { facts, notification, transaction in
            facts.reversals[transaction.transactionID, default: []].append(notification.signedDate)
        },
        // A revocation: a REFUND, or any notification (of a type known or not) whose copy shows one.
        Fact(says: { notification, transaction in transaction.revocationDate != nil || notification.type == .refund }) {
            facts, notification, transaction in
            let id = transaction.transactionID
            if facts.revocationNotice[id].map({ notification.noticeTime < $0.at }) ?? true {
                facts.revocationNotice[id] = (notification.noticeTime, notification.uuid)
            }
        },
        // An undated REVOKE of a FAMILY_SHARED transaction: the member left the family.
        Fact(says: { notification, transaction in notification.type == .revoke && transaction.ownership == .familyShared }) {
            facts, notification, transaction in
            let id = transaction.transactionID
            if facts.undatedExit[id].map({ notification.signedDate < $0.signed }) ?? true {
                facts.undatedExit[id] = (notification.signedDate, notification.noticeTime, notification.uuid)
            }
        },
    ]

    init(_ notifications: [NotificationRecord], firstRevokedCopy: [String: Timestamp]) {
        self.firstRevokedCopy = firstRevokedCopy
        for notification in notifications {
            guard let transaction = notification.transaction,
                let fact = Self.facts.first(where: { $0.says(notification, transaction) })
            else { continue }
            fact.take(&self, notification, transaction)
        }
        for id in reversals.keys { reversals[id]?.sort() }
    }

    /// True when `init` reads `notification`: it says one of the facts.
    static func reads(_ notification: NotificationRecord) -> Bool {
        guard let transaction = notification.transaction else { return false }
        return facts.contains { $0.says(notification, transaction) }
    }
}
