import Ingest
import Support

/// A REFUND, REVOKE or REFUND_DECLINED notification as a refund request's outcome reads it: its
/// transaction, when it was signed, and whether it declined.
///
/// The ledger keeps these instead of the notifications themselves: 32 bytes each instead of
/// about 220 (a transaction id of digits packed inside them), for every refund and every family
/// member's revocation of the data.
package struct RefundDecision: Sendable, Hashable {
    /// `transactionID` as the notification's record keeps it: an id of 16 to 28 digits has no
    /// memory of its own, where its text would take a block of 64 bytes for each decision.
    package private(set) var packedTransactionID: PackedID
    package var signedDate: Timestamp
    package var declined: Bool

    package var transactionID: String { packedTransactionID.text }

    /// The types that decide a refund request on their transaction: a REVOKE decides it as a
    /// REFUND does, dated or not.
    static let types: Set<NotificationType> = [.refund, .revoke, .refundDeclined]

    /// The decision `notification` is, nil when it is none or names no transaction.
    init?(_ notification: NotificationRecord) {
        guard let type = notification.type, RefundDecision.types.contains(type),
            let transaction = notification.transaction
        else { return nil }
        packedTransactionID = transaction.packedTransactionID
        signedDate = notification.signedDate
        declined = type == .refundDeclined
    }

    /// Every decision of `notifications`, by their transaction's id (ids equal exactly when
    /// their texts' bytes are: docs/inputs.md, "Identifiers"), each transaction's in the
    /// notifications' order: `Ledger.refundDecisions(of:)` finds a transaction's.
    static func sorted(_ notifications: [NotificationRecord]) -> [RefundDecision] {
        let decisions = notifications.compactMap(RefundDecision.init)
        let order = decisions.indices.sorted { a, b in
            let left = decisions[a].packedTransactionID, right = decisions[b].packedTransactionID
            return left == right ? a < b : left < right
        }
        return order.map { decisions[$0] }
    }
}
