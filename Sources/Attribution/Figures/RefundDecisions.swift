import Ingest
import Ledger
import Support

/// REFUND, REVOKE and REFUND_DECLINED notifications by transaction: how each request ended.
struct RefundDecisions {
    /// What the outcome reads of a decision: whether it declined, and when it was signed.
    private struct Decision {
        var declined: Bool
        var signedDate: Timestamp
    }

    /// Each transaction's decisions, in the ledger's order: a copy of each notification would
    /// weigh its whole record for the two fields read.
    private var byTransaction: [String: [Decision]] = [:]

    init(_ ledger: Ledger) {
        for notification in ledger.notifications
        where notification.type == .refund || notification.type == .revoke || notification.type == .refundDeclined {
            if let id = notification.transaction?.transactionID {
                byTransaction[id, default: []].append(
                    Decision(declined: notification.type == .refundDeclined, signedDate: notification.signedDate))
            }
        }
    }

    /// A later REFUND or REVOKE (or a revocation) grants; a later REFUND_DECLINED declines; else pending.
    func outcome(of request: NotificationRecord, transaction: LedgerTransaction?) -> (ConsumptionOutcome, Timestamp?) {
        var outcome = ConsumptionOutcome.pending
        var outcomeAt: Timestamp?
        let later = request.transaction.flatMap { byTransaction[$0.transactionID] } ?? []
        for decision in later where decision.signedDate >= request.signedDate {
            if !decision.declined && (outcomeAt.map { decision.signedDate < $0 } ?? true) {
                outcome = .granted
                outcomeAt = decision.signedDate
            } else if decision.declined && outcome == .pending {
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
