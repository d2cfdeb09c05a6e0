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

    init(_ notifications: [NotificationRecord], firstRevokedCopy: [String: Timestamp]) {
        self.firstRevokedCopy = firstRevokedCopy
        for notification in notifications {
            guard let transaction = notification.transaction else { continue }
            let id = transaction.transactionID
            let type = notification.type
            if type == .refundReversed {
                reversals[id, default: []].append(notification.signedDate)
                continue
            }
            if transaction.revocationDate != nil || type == .refund {
                if revocationNotice[id].map({ notification.noticeTime < $0.at }) ?? true {
                    revocationNotice[id] = (notification.noticeTime, notification.uuid)
                }
            } else if type == .revoke, transaction.ownership == .familyShared {
                if undatedExit[id].map({ notification.signedDate < $0.signed }) ?? true {
                    undatedExit[id] = (notification.signedDate, notification.noticeTime, notification.uuid)
                }
            }
        }
        for id in reversals.keys { reversals[id]?.sort() }
    }

    /// True when `init` reads `notification`: a reversal, a refund, a REVOKE, or any
    /// notification (of a type known or not) whose copy shows a revocation.
    static func reads(_ notification: NotificationRecord) -> Bool {
        guard let transaction = notification.transaction else { return false }
        let type = notification.type
        return type == .refundReversed || type == .refund || type == .revoke || transaction.revocationDate != nil
    }
}
