import Support

/// What one line of `transactions/*.jsonl` held.
package struct TransactionLine: Sendable, Codable {
    package var transactions: [TransactionRecord] = []
    package var renewals: [RenewalRecord] = []
    /// Paging of a Get Transaction History or Get Refund History page.
    package var page: HistoryPage?
    /// A Get App Transaction Info response or a decoded app transaction: the app's own
    /// purchase, which holds no in-app transaction; counted, never costed.
    var appTransactions = 0
}

/// Decodes one line of `transactions/*.jsonl`, any App Store Server API response that holds
/// transactions: a Get Transaction History or Get Refund History page (`signedTransactions`),
/// Get Transaction Info (`signedTransactionInfo`), Get All Subscription Statuses
/// (`data[].lastTransactions[]`, with renewal info), a single `signedTransaction`, or a decoded
/// transaction object.
///
/// A response's top-level `environment` applies to what it holds.
package func decodeTransactionLine(
    _ bytes: UnsafeRawBufferPointer, at location: SourceLocation, verifier: JWSVerifier
) throws(AppStoreDecodingError) -> TransactionLine {
    var response = ResponseFields()
    do {
        var cursor = JSONCursor(bytes)
        try response.read(&cursor, verifier: verifier)
        try cursor.finish()
    } catch {
        throw AppStoreDecodingError(error)
    }
    var line = TransactionLine(page: response.page)
    if response.appTransaction && response.inline.transactionId == nil && response.signed.isEmpty {
        line.appTransactions = 1
        return line
    }
    if response.inline.transactionId != nil {
        do throws(SignatureError) {
            try verifier.countDecoded(
                claims: .init(
                    signedDate: response.inline.signedDate, bundleID: response.inline.bundleId,
                    kind: .transaction))
        } catch {
            throw AppStoreDecodingError(field: "", reason: error.description)
        }
        line.transactions.append(try record(response.inline, response, field: "", at: location))
        return line
    }
    guard response.isResponse else {
        throw AppStoreDecodingError(
            field: "",
            reason: "not a transaction response: no signedTransactions, signedTransactionInfo, signedTransaction, "
                + "data[].lastTransactions or transactionId")
    }
    for (field, fields) in response.signed {
        line.transactions.append(try record(fields, response, field: field, at: location))
    }
    for status in response.statuses {
        var transaction: TransactionRecord?
        if let fields = status.transaction { transaction = try record(fields, response, field: status.field, at: location) }
        if let renewal = status.renewal?.record(transactionID: transaction?.transactionID, fallbackSignedDate: nil, at: location)
        {
            var renewal = renewal
            renewal.rawEnvironment = renewal.rawEnvironment ?? response.environment
            line.renewals.append(renewal)
        }
        if let transaction { line.transactions.append(transaction) }
    }
    return line
}

private func record(
    _ fields: TransactionFields, _ response: ResponseFields, field: String, at location: SourceLocation
) throws(AppStoreDecodingError) -> TransactionRecord {
    do {
        var record = try fields.record(fallbackSignedDate: nil, at: location)
        record.rawEnvironment = record.rawEnvironment ?? response.environment
        return record
    } catch {
        throw field.isEmpty ? error : error.within(field)
    }
}

/// The members of a response line, gathered in one walk.
private struct ResponseFields {
    var environment: String?
    var page: HistoryPage?
    /// Signed transactions with the field each came from: `signedTransactions[2]`.
    var signed: [(String, TransactionFields)] = []
    var statuses: [StatusFields] = []
    var inline = TransactionFields()
    var isResponse = false
    /// `signedAppTransactionInfo`, or the `receiptType` of a decoded app transaction.
    var appTransaction = false

    mutating func read(_ cursor: inout JSONCursor, verifier: JWSVerifier) throws {
        try cursor.members { cursor, key in
            if key == "signedTransactions" {
                isResponse = true
                try cursor.elements { cursor, index in
                    signed.append(("signedTransactions[\(index)]", try TransactionFields.read(&cursor, verifier: verifier)))
                }
            } else if key == "signedTransactionInfo" || key == "signedTransaction" {
                isResponse = true
                let name = key == "signedTransaction" ? "signedTransaction" : "signedTransactionInfo"
                signed.append((name, try TransactionFields.read(&cursor, verifier: verifier)))
            } else if key == "signedAppTransactionInfo" || key == "receiptType" {
                // The app's own purchase (Get App Transaction Info): no in-app transaction to read.
                appTransaction = true
                try cursor.skip()
            } else if key == "hasMore" {
                page = HistoryPage(hasMore: try cursor.bool(), paginationToken: page?.paginationToken)
            } else if key == "revision" || key == "paginationToken" {
                // The token for the next page (a string; some exports write a number).
                var token: String?
                if cursor.isString() { token = try cursor.optionalString() } else { try cursor.skip() }
                page = HistoryPage(hasMore: page?.hasMore ?? false, paginationToken: token)
            } else if key == "data", !cursor.isString() {
                try readStatuses(&cursor, verifier: verifier)
            } else if key == "environment", cursor.isString() {
                environment = try cursor.optionalString()
                inline.environment = environment
            } else if try !inline.read(key, &cursor) {
                try cursor.skip()
            }
        }
    }

    /// `data[]` of Get All Subscription Statuses: groups of `lastTransactions[]`.
    private mutating func readStatuses(_ cursor: inout JSONCursor, verifier: JWSVerifier) throws {
        if cursor.null() { return }
        isResponse = true
        try cursor.elements { cursor, group in
            try cursor.members { cursor, key in
                guard key == "lastTransactions", !cursor.null() else { return try cursor.skip() }
                try cursor.elements { cursor, index in
                    let field = "data[\(group)].lastTransactions[\(index)]"
                    statuses.append(try StatusFields.object(&cursor, field: field, verifier: verifier))
                }
            }
        }
    }
}

/// One `lastTransactions[]` entry: the subscription's latest transaction and renewal info.
private struct StatusFields {
    var field: String
    var transaction: TransactionFields?
    var renewal: RenewalFields?

    static func object(_ cursor: inout JSONCursor, field: String, verifier: JWSVerifier) throws -> StatusFields {
        var status = StatusFields(field: field)
        try cursor.members { cursor, key in
            if key == "signedTransactionInfo", !cursor.null() {
                status.transaction = try TransactionFields.read(&cursor, verifier: verifier)
            } else if key == "signedRenewalInfo", !cursor.null() {
                status.renewal = try RenewalFields.read(&cursor, verifier: verifier)
            } else {
                try cursor.skip()
            }
        }
        return status
    }
}
