import Ingest
import Support

/// Resolves which account holds a transaction: accounts.csv's original transaction id first,
/// then `appAccountToken` (a token declared in accounts.csv, or an account id itself).
///
/// It keeps accounts.csv's rows in three orders (by original transaction id, by token, by
/// account), each searched by halves, instead of a table by each: the tables took about 230
/// bytes an account, these 40. Among rows naming the same id or token, the first in the file
/// is the one found, as accounts.csv's first claim stands. Tokens and account ids are compared
/// by their bytes, as cost rows find their account.
struct AccountDirectory {
    private let rows: [AccountLinkRow]
    /// The rows naming an original transaction, by its key, then by place.
    private let byOriginalTransaction: [(key: TransactionKey, row: Int32)]
    /// The rows declaring a token, by the token's bytes, then by place.
    private let byToken: [Int32]
    /// Every row, by account id, then by place.
    private let byAccount: [Int32]

    init(_ rows: [AccountLinkRow]) {
        self.rows = rows
        var keyed: [(key: TransactionKey, row: Int32)] = []
        keyed.reserveCapacity(rows.count)
        for (place, row) in rows.enumerated() where !row.originalTransactionID.isEmpty {
            keyed.append((TransactionKey(row.originalTransactionID), Int32(place)))
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.row < $1.row }
        byOriginalTransaction = keyed
        var tokens = rows.indices.filter { rows[$0].appAccountToken != nil }.map(Int32.init)
        tokens.sort { first, second in
            let (one, other) = (Self.token(of: first, in: rows), Self.token(of: second, in: rows))
            return one.bytesEqual(other) ? first < second : one.bytesPrecede(other)
        }
        byToken = tokens
        var accounts = rows.indices.map(Int32.init)
        accounts.sort { first, second in
            let (one, other) = (rows[Int(first)].accountID, rows[Int(second)].accountID)
            return one.bytesEqual(other) ? first < second : one.bytesPrecede(other)
        }
        byAccount = accounts
    }

    /// The account holding the record in `box`, a conflict to report, and whether its `appAccountToken`
    /// matched neither a token nor an account id of accounts.csv (counted, not a conflict).
    func account(for box: RecordBox) -> (account: String?, conflict: Reject?, unmatchedToken: Bool) {
        // Read through the box: a copy of the record would retain a dozen strings.
        let listed = listedRow(of: TransactionKey(box.record.originalTransactionID)).map { rows[$0] }
        var byToken: String?
        var unmatched = false
        if let token = box.record.appAccountToken {
            byToken = tokenRow(of: token).map { rows[$0].accountID } ?? (holdsAccount(token) ? token : nil)
            unmatched = byToken == nil
        }
        guard let listed else { return (byToken, nil, unmatched) }
        if let byToken, !byToken.bytesEqual(listed.accountID) {
            let conflict = Reject(
                file: box.record.source.file, line: box.record.source.line, field: "appAccountToken",
                value: box.record.appAccountToken ?? "",
                reason:
                    "conflict: transaction \(box.record.transactionID) is held by account \(listed.accountID) (\(listed.source)) but its appAccountToken points to \(byToken); accounts.csv wins"
            )
            return (listed.accountID, conflict, false)
        }
        return (listed.accountID, nil, unmatched)
    }

    /// The first row naming the original transaction `key`.
    private func listedRow(of key: TransactionKey) -> Int? {
        let place = byOriginalTransaction.firstPlace { $0.key < key }
        guard place < byOriginalTransaction.count, byOriginalTransaction[place].key == key else { return nil }
        return Int(byOriginalTransaction[place].row)
    }

    /// The first row declaring `token`.
    private func tokenRow(of token: String) -> Int? {
        byToken.place(ofBytes: token) { Self.token(of: $0, in: rows) }.map { Int(byToken[$0]) }
    }

    /// Whether `id` is an account of accounts.csv.
    private func holdsAccount(_ id: String) -> Bool {
        byAccount.place(ofBytes: id) { rows[Int($0)].accountID } != nil
    }

    /// The token of `row`, one of the rows declaring one.
    private static func token(of row: Int32, in rows: [AccountLinkRow]) -> String { rows[Int(row)].appAccountToken ?? "" }
}
