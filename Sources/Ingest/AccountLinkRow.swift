import Support

/// One row of `accounts.csv`: an account of the app and an Apple transaction it holds.
package struct AccountLinkRow: Sendable, Hashable, Codable {
    package var accountID: String
    /// Empty when the row only declares the account's `appAccountToken`.
    package var originalTransactionID: String {
        get { packedOriginalTransactionID.text }
        set { packedOriginalTransactionID = PackedID(newValue) }
    }
    /// `originalTransactionID` as the row keeps it (`PackedID`): a row is held for every
    /// account, while the ledger is built and in a snapshot.
    private var packedOriginalTransactionID: PackedID
    package var appAccountToken: String?
    package var source: SourceLocation

    package init(accountID: String, originalTransactionID: String, appAccountToken: String?, source: SourceLocation) {
        self.init(
            accountID: accountID, packedOriginalTransactionID: PackedID(originalTransactionID),
            appAccountToken: appAccountToken, source: source)
    }

    init(accountID: String, packedOriginalTransactionID: PackedID, appAccountToken: String?, source: SourceLocation) {
        self.accountID = accountID
        self.packedOriginalTransactionID = packedOriginalTransactionID
        self.appAccountToken = appAccountToken
        self.source = source
    }

    // Coded as when the id was stored as text: the same keys, in the same order.
    private enum CodingKeys: String, CodingKey {
        case accountID
        case packedOriginalTransactionID = "originalTransactionID"
        case appAccountToken, source
    }
}

/// Reads `accounts.csv` (`account_id,original_transaction_id[,app_account_token]`).
///
/// An original transaction or an `app_account_token` claimed by a second account is a
/// conflict: the first claim stands and the second row is rejected with both accounts named.
package enum AccountLinkReader {
    static let purpose = "accounts.csv needs account_id,original_transaction_id and may have app_account_token"

    package static func read(path: String, rejects: RejectLog) throws -> [AccountLinkRow] {
        // Fitted once the tables of claims are gone: not the rows, their copy and the tables at once.
        try rows(path: path, rejects: rejects).fitted()
    }

    private static func rows(path: String, rejects: RejectLog) throws -> [AccountLinkRow] {
        var rows: [AccountLinkRow] = []
        // By bytes, as ids are told apart everywhere (docs/inputs.md, "Identifiers").
        // Keyed by packed ids, equal exactly when the texts' bytes are: Apple's 16 digits are read
        // from the file's bytes without a block of memory each (`PackedID`).
        var claimedBy: [PackedID: (account: String, line: Int)] = [:]
        var tokenHeldBy: [BytesKey: (account: String, line: Int)] = [:]
        var accountColumn = 0
        var transactionColumn = 0
        var tokenColumn: Int?
        try readSmallCSV(path: path, purpose: purpose) { columns, record in
            func reject(_ field: Int?, _ name: String, _ reason: String) throws {
                let value = field.flatMap { $0 < record.count ? record.string($0) : nil } ?? ""
                try rejects.record(Reject(file: path, line: record.line, field: name, value: value, reason: reason))
            }
            guard record.count == columns.names.count else {
                try reject(nil, "", "row has \(record.count) fields but the header has \(columns.names.count)")
                return
            }
            let account = record.string(accountColumn).trimmingSpaces
            let originalBytes = record.trimmed(transactionColumn)
            let token = tokenColumn.map { record.string($0).trimmingSpaces }.flatMap { $0.isEmpty ? nil : $0 }
            guard !account.isEmpty else {
                try reject(accountColumn, "account_id", "empty account_id")
                return
            }
            func holdsControl<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
                bytes.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
            }
            for (column, name, control) in [
                (accountColumn, "account_id", holdsControl(account.utf8)),
                (transactionColumn, "original_transaction_id", holdsControl(originalBytes)),
            ]
            where control {
                try reject(column, name, "holds a control character; text fields may hold tabs but no other control characters")
                return
            }
            let original = PackedID(utf8: originalBytes)
            guard !original.isEmpty || token != nil else {
                try reject(
                    transactionColumn, "original_transaction_id",
                    "neither an original_transaction_id nor an app_account_token to link")
                return
            }
            let tokenKey = token.map(BytesKey.init)
            if !original.isEmpty, let claim = claimedBy[original] {
                if !claim.account.bytesEqual(account) {
                    try reject(
                        transactionColumn, "original_transaction_id",
                        "conflict: already claimed by account \(claim.account) on line \(claim.line); a transaction belongs to one account"
                    )
                }
                return
            }
            let holder = tokenKey.flatMap { tokenHeldBy[$0] }
            if let holder, !holder.account.bytesEqual(account) {
                // One token names one account: a second holder would take the first one's
                // transactions silently, so the row is refused, naming both.
                try reject(
                    tokenColumn, "app_account_token",
                    "conflict: already the token of account \(holder.account) on line \(holder.line); a token names one account"
                )
                return
            }
            if !original.isEmpty { claimedBy[original] = (account, record.line) }
            if let tokenKey, holder == nil { tokenHeldBy[tokenKey] = (account, record.line) }
            rows.append(
                AccountLinkRow(
                    accountID: account, packedOriginalTransactionID: original, appAccountToken: token,
                    source: SourceLocation(file: path, line: record.line)))
        } header: { columns in
            accountColumn = try columns.require("account_id", file: path, purpose: purpose)
            transactionColumn = try columns.require("original_transaction_id", file: path, purpose: purpose)
            tokenColumn = columns.index("app_account_token")
        }
        return rows
    }
}
