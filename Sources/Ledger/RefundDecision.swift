import Ingest
import Support

/// A REFUND, REVOKE or REFUND_DECLINED notification as a refund request's outcome reads it: its
/// transaction, when it was signed, and whether it declined.
///
/// The ledger keeps these instead of the notifications themselves: 32 bytes each instead of
/// about 220, for every refund and every family member's revocation of the data.
package struct RefundDecision: Sendable, Hashable {
    package var transactionID: String
    package var signedDate: Timestamp
    package var declined: Bool

    /// The types that decide a refund request on their transaction: a REVOKE decides it as a
    /// REFUND does, dated or not.
    static let types: Set<NotificationType> = [.refund, .revoke, .refundDeclined]

    /// The decision `notification` is, nil when it is none or names no transaction.
    init?(_ notification: NotificationRecord) {
        guard let type = notification.type, RefundDecision.types.contains(type),
            let transactionID = notification.transaction?.transactionID
        else { return nil }
        self.transactionID = transactionID
        signedDate = notification.signedDate
        declined = type == .refundDeclined
    }

    /// Every decision of `notifications`, by their transaction's id (compared by bytes, as ids
    /// are: docs/inputs.md, "Identifiers"), each transaction's in the notifications' order.
    static func sorted(_ notifications: [NotificationRecord]) -> [RefundDecision] {
        let decisions = notifications.compactMap(RefundDecision.init)
        let order = decisions.indices.sorted { a, b in
            let left = decisions[a].transactionID, right = decisions[b].transactionID
            return left.bytesEqual(right) ? a < b : left.bytesPrecede(right)
        }
        return order.map { decisions[$0] }
    }
}
