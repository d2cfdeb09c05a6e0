import Ingest
import Ledger
import Support

/// How each refund request ended, from the ledger's REFUND, REVOKE and REFUND_DECLINED
/// decisions on its transaction.
struct RefundDecisions {
    let ledger: Ledger

    init(_ ledger: Ledger) {
        self.ledger = ledger
    }

    /// A later REFUND or REVOKE (or a revocation) grants; a later REFUND_DECLINED declines; else pending.
    func outcome(of request: NotificationRecord, transaction: LedgerTransaction?) -> (ConsumptionOutcome, Timestamp?) {
        var outcome = ConsumptionOutcome.pending
        var outcomeAt: Timestamp?
        let decisions = request.transaction.map { ledger.refundDecisions(of: $0.packedTransactionID) } ?? []
        for decision in decisions where decision.signedDate >= request.signedDate {
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
