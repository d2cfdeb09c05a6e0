import Ingest
import Support

/// Resolves which account holds a transaction: accounts.csv's original transaction id first,
/// then `appAccountToken` (a token declared in accounts.csv, or an account id itself).
struct AccountDirectory {
    private var byOriginalTransaction: [TransactionKey: (account: String, source: SourceLocation)] = [:]
    private var byToken: [String: String] = [:]
    private var accountIDs = Set<String>()

    init(_ rows: [AccountLinkRow]) {
        byOriginalTransaction.reserveCapacity(rows.count)
        accountIDs.reserveCapacity(rows.count)
        for row in rows {
            accountIDs.insert(row.accountID)
            if !row.originalTransactionID.isEmpty {
                let key = TransactionKey(row.originalTransactionID)
                if byOriginalTransaction[key] == nil { byOriginalTransaction[key] = (row.accountID, row.source) }
            }
            if let token = row.appAccountToken, byToken[token] == nil { byToken[token] = row.accountID }
        }
    }

    /// The account holding the record in `box`, a conflict to report, and whether its `appAccountToken`
    /// matched neither a token nor an account id of accounts.csv (counted, not a conflict).
    func account(for box: RecordBox) -> (account: String?, conflict: Reject?, unmatchedToken: Bool) {
        // Read through the box: a copy of the record would retain a dozen strings.
        let listed = byOriginalTransaction[TransactionKey(box.record.originalTransactionID)]
        var byToken: String?
        var unmatched = false
        if let token = box.record.appAccountToken {
            byToken = self.byToken[token] ?? (accountIDs.contains(token) ? token : nil)
            unmatched = byToken == nil
        }
        guard let listed else { return (byToken, nil, unmatched) }
        if let byToken, byToken != listed.account {
            let conflict = Reject(
                file: box.record.source.file, line: box.record.source.line, field: "appAccountToken",
                value: box.record.appAccountToken ?? "",
                reason:
                    "conflict: transaction \(box.record.transactionID) is held by account \(listed.account) (\(listed.source)) but its appAccountToken points to \(byToken); accounts.csv wins"
            )
            return (listed.account, conflict, false)
        }
        return (listed.account, nil, unmatched)
    }
}
