import Ingest
import Ledger
import Support

/// REFUND, REVOKE and REFUND_DECLINED notifications by transaction: how each request ended.
struct RefundDecisions {
    private var byTransaction: [String: [NotificationRecord]] = [:]

    init(_ ledger: Ledger) {
        for notification in ledger.notifications
        where notification.type == .refund || notification.type == .revoke || notification.type == .refundDeclined {
            if let id = notification.transaction?.transactionID { byTransaction[id, default: []].append(notification) }
        }
    }

    /// A later REFUND or REVOKE (or a revocation) grants; a later REFUND_DECLINED declines; else pending.
    func outcome(of request: NotificationRecord, transaction: LedgerTransaction?) -> (ConsumptionOutcome, Timestamp?) {
        var outcome = ConsumptionOutcome.pending
        var outcomeAt: Timestamp?
        let later = request.transaction.flatMap { byTransaction[$0.transactionID] } ?? []
        for decision in later where decision.signedDate >= request.signedDate {
            if decision.type != .refundDeclined && (outcomeAt.map { decision.signedDate < $0 } ?? true) {
                outcome = .granted
                outcomeAt = decision.signedDate
            } else if decision.type == .refundDeclined && outcome == .pending {
                outcome = .declined
                outcomeAt = decision.signedDate
            }
        }
        if outcome != .granted, let record = transaction?.record, let revoked = record.revocationDate,
            revoked >= request.signedDate, !record.isUpgraded
        {
            return (.granted, revoked)
        }
        return (outcome, outcomeAt)
    }
}
