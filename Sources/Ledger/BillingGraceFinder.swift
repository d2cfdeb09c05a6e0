import Ingest
import Support

/// Finds the billing grace periods of auto-renewable transactions from renewal info
/// (docs/domain.md rule 13), and whether billing recovered in each.
enum BillingGraceFinder {
    /// Sets `grace` on every transaction whose renewal failed with billing grace: the renewal
    /// info that came with it (or, when renewal info came alone, with the latest period of its
    /// subscription that expired before the grace ended) dates the grace; a later transaction
    /// of the same subscription bought inside the grace is the recovery that pays for it.
    static func attach(
        _ renewals: [String: RenewalRecord], to transactions: inout [LedgerTransaction]
    ) {
        guard !renewals.isEmpty else { return }
        // Only the subscriptions some renewal info speaks of: few, against every transaction.
        let named = Set(renewals.values.map { TransactionKey($0.originalTransactionID) })
        var bySubscription: [TransactionKey: [Int]] = [:]
        for position in transactions.indices where transactions[position].type == .autoRenewable {
            let original = TransactionKey(transactions[position].originalTransactionID)
            if named.contains(original) { bySubscription[original, default: []].append(position) }
        }
        for (key, renewal) in renewals.sorted(by: { $0.key < $1.key }) {
            guard let graceEnd = renewal.gracePeriodExpiresDate else { continue }
            let subscription = bySubscription[TransactionKey(renewal.originalTransactionID)] ?? []
            let position =
                key.hasPrefix("original:")
                ? latestPeriod(subscription, before: graceEnd, transactions) : Ledger.index(of: key, in: transactions)
            guard let position, let expires = transactions[position].box.record.expiresDate, expires < graceEnd,
                transactions[position].end?.kind == .expiry
            else { continue }
            let recovery = subscription.filter { other in
                let purchase = transactions[other].box.record.purchaseDate
                return other != position && purchase >= expires && purchase < graceEnd
            }.min { transactions[$0].box.record.purchaseDate < transactions[$1].box.record.purchaseDate }
            transactions[position].grace = BillingGrace(start: expires, end: graceEnd, recoveredBy: recovery)
            if recovery == nil {
                // Never paid: the access ended when the grace did, and the server knew then.
                transactions[position].end = AccessEnd(kind: .expiry, at: graceEnd, noticedAt: graceEnd, notificationUUID: nil)
            }
        }
    }

    /// The period of the subscription that expired last before `end`.
    private static func latestPeriod(_ subscription: [Int], before end: Timestamp, _ transactions: [LedgerTransaction]) -> Int? {
        subscription.filter { (transactions[$0].box.record.expiresDate ?? end) < end }
            .max { (transactions[$0].box.record.expiresDate ?? end) < (transactions[$1].box.record.expiresDate ?? end) }
    }
}
