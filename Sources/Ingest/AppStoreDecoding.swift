import Support

/// A notification as decoded from one line, with the other transaction copies the line
/// carried (V1 bodies list every receipt of the subscription).
package struct DecodedNotification: Sendable {
    package var notification: NotificationRecord
    package var otherTransactions: [TransactionRecord] = []
}

/// Why one line of App Store data was refused: the field and a reason a person can act on.
package struct AppStoreDecodingError: Error, Sendable, Hashable {
    package var field: String
    package var reason: String

    init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// Maps what the JSON cursor or the JWS decoder threw.
    init(_ error: any Error) {
        switch error {
        case let json as JSONError:
            // A signed payload's fields read as if it had arrived decoded: data.signedTransactionInfo.price.
            let prefix = "signedPayload."
            field = json.field.hasPrefix(prefix) ? String(json.field.dropFirst(prefix.count)) : json.field
            reason = json.reason
        case let jws as JWSError:
            field = ""
            reason = jws.description
        case let decoding as AppStoreDecodingError:
            self = decoding
        default:
            field = ""
            reason = "\(error)"
        }
    }
}

/// Every member a notification line may hold, in any of its forms, gathered in one walk.
private struct NotificationFields {
    var receivedAt: Timestamp?
    var notificationType: String?
    var subtype: String?
    var notificationUUID: String?
    var version: String?
    var signedDate: Timestamp?
    var environment: String?
    var transaction: TransactionFields?
    var consumptionRequestReason: String?
    var v1Type: String?
    var v1Receipts: [V1Receipt] = []
    var bundleID: String?
    var appAppleID: Int64?
    /// True once the fields came from a `signedPayload`, whose signature is then checked.
    var signed = false

    /// Reads the members of a notification object (a body, or the payload inside `signedPayload`).
    ///
    /// `verifier` checks a signed payload; nested JWS inside one are covered by it.
    mutating func read(_ cursor: inout JSONCursor, verifier: JWSVerifier) throws {
        try cursor.members { cursor, key in
            if key == "signedPayload" {
                let compact = try cursor.stringBytes()
                let payload: [UInt8]
                do { payload = try JWS.payload(of: compact) } catch let error as JWSError {
                    throw JSONError(reason: error.description, field: "")
                }
                signed = true
                try payload.withUnsafeBytes { bytes in
                    var inner = JSONCursor(bytes)
                    try read(&inner, verifier: verifier)
                    try inner.finish()
                }
                try checkSignature(compact, verifier: verifier)
            } else if key == "receivedAt" {
                receivedAt = try cursor.optionalTimestamp()
            } else if key == "notificationType" {
                notificationType = try cursor.optionalString()
            } else if key == "subtype" {
                subtype = try cursor.optionalString()
            } else if key == "notificationUUID" {
                notificationUUID = try cursor.optionalString()
            } else if key == "version" {
                version = try cursor.optionalString()
            } else if key == "signedDate" {
                signedDate = try cursor.optionalTimestamp()
            } else if key == "data" {
                try readData(&cursor, verifier: signed ? nil : verifier)
            } else if key == "notification_type" {
                v1Type = try cursor.optionalString()
            } else if key == "environment" {
                environment = try cursor.optionalString()
            } else if key == "unified_receipt" {
                try cursor.members { cursor, key in
                    guard key == "latest_receipt_info", !cursor.null() else { return try cursor.skip() }
                    try cursor.elements { cursor, _ in v1Receipts.append(try V1Receipt.object(&cursor)) }
                }
            } else {
                try cursor.skip()
            }
        }
    }

    func checkSignature(_ compact: UnsafeRawBufferPointer, verifier: JWSVerifier) throws {
        do {
            try verifier.check(compact, claims: .init(signedDate: signedDate, bundleID: bundleID, appAppleID: appAppleID))
        } catch {
            throw JSONError(reason: error.description, field: "")
        }
    }

    /// `verifier` is nil inside a signed payload: its signature covers what it holds.
    private mutating func readData(_ cursor: inout JSONCursor, verifier: JWSVerifier?) throws {
        if cursor.null() { return }
        try cursor.members { cursor, key in
            if key == "environment" {
                environment = try cursor.optionalString()
            } else if key == "bundleId" {
                bundleID = try cursor.optionalString()
            } else if key == "appAppleId" {
                appAppleID = try cursor.optionalInteger()
            } else if key == "signedTransactionInfo" {
                if cursor.null() { return }
                do {
                    transaction =
                        cursor.isString()
                        ? try TransactionFields.signed(&cursor, verifier: verifier) : try TransactionFields.object(&cursor)
                } catch let error as JWSError {
                    throw JSONError(reason: error.description, field: "")
                }
            } else if key == "consumptionRequestReason" {
                consumptionRequestReason = try cursor.optionalString()
            } else {
                try cursor.skip()
            }
        }
    }
}

/// One V1 `latest_receipt_info` entry: every value a string, dates as `*_ms`.
private struct V1Receipt {
    var transactionID: String?
    var originalTransactionID: String?
    var productID: String?
    var purchase: Int64?
    var expires: Int64?
    var cancellation: Int64?
    var cancellationReason: Int64?
    var ownership: String?
    var webOrderLineItemID: String?
    var appAccountToken: String?
    var quantity: Int64?

    static func object(_ cursor: inout JSONCursor) throws -> V1Receipt {
        var receipt = V1Receipt()
        try cursor.members { cursor, key in
            if cursor.null() { return }
            if key == "transaction_id" {
                receipt.transactionID = try cursor.string()
            } else if key == "original_transaction_id" {
                receipt.originalTransactionID = try cursor.string()
            } else if key == "product_id" {
                receipt.productID = try cursor.string()
            } else if key == "purchase_date_ms" {
                receipt.purchase = try cursor.lenientInteger()
            } else if key == "expires_date_ms" {
                receipt.expires = try cursor.lenientInteger()
            } else if key == "cancellation_date_ms" {
                receipt.cancellation = try cursor.lenientInteger()
            } else if key == "cancellation_reason" {
                receipt.cancellationReason = try cursor.lenientInteger()
            } else if key == "in_app_ownership_type" {
                receipt.ownership = try cursor.string()
            } else if key == "web_order_line_item_id" {
                receipt.webOrderLineItemID = try cursor.string()
            } else if key == "app_account_token" {
                receipt.appAccountToken = try cursor.string()
            } else if key == "quantity" {
                receipt.quantity = try cursor.lenientInteger()
            } else {
                try cursor.skip()
            }
        }
        return receipt
    }
}

/// Decodes one line of `notifications/*.jsonl`: a V2 body, a decoded V2 payload, or a V1 body.
package func decodeNotificationLine(
    _ bytes: UnsafeRawBufferPointer, at location: SourceLocation, verifier: JWSVerifier
) -> Result<DecodedNotification, AppStoreDecodingError> {
    Result { () throws(AppStoreDecodingError) in
        var fields = NotificationFields()
        do {
            var cursor = JSONCursor(bytes)
            try fields.read(&cursor, verifier: verifier)
            try cursor.finish()
        } catch {
            throw AppStoreDecodingError(error)
        }
        if !fields.signed { verifier.countDecoded() }
        if fields.notificationType != nil { return try makeNotification(fields, at: location) }
        if fields.v1Type != nil { return try makeV1Notification(fields, digest: SHA256.digest(bytes), at: location) }
        throw AppStoreDecodingError(
            field: "", reason: "not a notification: no signedPayload, notificationType or notification_type")
    }
}

/// Decodes a `signed_payload` from a notification CSV export.
func decodeSignedNotification(
    _ signed: String, receivedAt: Timestamp?, at location: SourceLocation, verifier: JWSVerifier
) throws(AppStoreDecodingError) -> DecodedNotification {
    var fields = NotificationFields()
    fields.signed = true
    var compact = signed
    do {
        try compact.withUTF8 { utf8 in
            let jws = UnsafeRawBufferPointer(utf8)
            let payload = try JWS.payload(of: jws)
            try payload.withUnsafeBytes { bytes in
                var cursor = JSONCursor(bytes)
                try fields.read(&cursor, verifier: verifier)
                try cursor.finish()
            }
            try fields.checkSignature(jws, verifier: verifier)
        }
    } catch let error as JSONError {
        throw AppStoreDecodingError(field: error.field.isEmpty ? "signed_payload" : error.field, reason: error.reason)
    } catch let error as JWSError {
        throw AppStoreDecodingError(field: "signed_payload", reason: error.description)
    } catch {
        throw AppStoreDecodingError(error)
    }
    fields.receivedAt = receivedAt ?? fields.receivedAt
    guard fields.notificationType != nil else {
        throw AppStoreDecodingError(field: "notificationType", reason: "missing")
    }
    return try makeNotification(fields, at: location)
}

private func makeNotification(_ fields: NotificationFields, at location: SourceLocation) throws(AppStoreDecodingError)
    -> DecodedNotification
{
    guard let uuid = fields.notificationUUID, !uuid.isEmpty else {
        throw AppStoreDecodingError(field: "notificationUUID", reason: "missing: retries cannot be told apart without it")
    }
    guard let type = fields.notificationType else {
        throw AppStoreDecodingError(field: "notificationType", reason: "missing")
    }
    guard let signedDate = fields.signedDate else {
        throw AppStoreDecodingError(field: "signedDate", reason: "missing: the as-of cut-off needs it")
    }
    var transaction: TransactionRecord?
    if let transactionFields = fields.transaction {
        do {
            transaction = try transactionFields.record(fallbackSignedDate: signedDate, at: location)
        } catch {
            throw AppStoreDecodingError(field: "data.signedTransactionInfo." + error.field, reason: error.reason)
        }
    }
    let notification = NotificationRecord(
        uuid: uuid, rawType: type, subtype: fields.subtype, version: fields.version ?? "2.0", signedDate: signedDate,
        receivedAt: fields.receivedAt, rawEnvironment: fields.environment, transaction: transaction,
        rawConsumptionRequestReason: fields.consumptionRequestReason, source: location)
    return DecodedNotification(notification: notification)
}

/// V1: every receipt becomes a transaction copy.
///
/// V1 signs nothing, so a copy is dated when it was received, else by the latest date it carries; the
/// notification is about the receipt that was cancelled, else the latest one.
private func makeV1Notification(
    _ fields: NotificationFields, digest: String, at location: SourceLocation
) throws(AppStoreDecodingError) -> DecodedNotification {
    let receivedAt = fields.receivedAt
    let environment = fields.environment.flatMap(AppStoreEnvironment.init(v1:))?.rawValue ?? fields.environment
    var transactions: [TransactionRecord] = []
    for (index, receipt) in fields.v1Receipts.enumerated() {
        let field = "unified_receipt.latest_receipt_info[\(index)]"
        guard let id = receipt.transactionID, !id.isEmpty else {
            throw AppStoreDecodingError(field: field + ".transaction_id", reason: "a transaction without transaction_id")
        }
        guard let product = receipt.productID, let purchaseMilliseconds = receipt.purchase else {
            throw AppStoreDecodingError(field: field, reason: "receipt \(id) lacks product_id or purchase_date_ms")
        }
        let purchase = Timestamp(milliseconds: purchaseMilliseconds)
        let cancellation = receipt.cancellation.map(Timestamp.init(milliseconds:))
        let expires = receipt.expires.map(Timestamp.init(milliseconds:))
        transactions.append(
            TransactionRecord(
                transactionID: id, originalTransactionID: receipt.originalTransactionID ?? id,
                webOrderLineItemID: receipt.webOrderLineItemID, productID: product, subscriptionGroupIdentifier: nil,
                purchaseDate: purchase, originalPurchaseDate: nil, expiresDate: expires, quantity: Int(receipt.quantity ?? 1),
                rawType: expires != nil ? ProductType.autoRenewable.rawValue : nil, appAccountToken: receipt.appAccountToken,
                rawOwnership: receipt.ownership ?? Ownership.purchased.rawValue,
                signedDate: receivedAt ?? max(purchase, cancellation ?? purchase),
                revocationDate: cancellation, rawRevocationReason: receipt.cancellationReason.map { Int($0) },
                rawRevocationType: nil,
                revocationPercentage: nil, isUpgraded: false, rawEnvironment: environment, price: nil, currency: nil,
                appTransactionID: nil, source: location))
    }
    let mainIndex = transactions.indices.max { a, b in
        let left = (transactions[a].revocationDate != nil ? 1 : 0, transactions[a].purchaseDate, transactions[a].transactionID)
        let right = (transactions[b].revocationDate != nil ? 1 : 0, transactions[b].purchaseDate, transactions[b].transactionID)
        return left < right
    }
    let main = mainIndex.map { transactions[$0] }
    let others = mainIndex.map { index in transactions.enumerated().filter { $0.offset != index }.map(\.element) } ?? []
    let signedDate = receivedAt ?? transactions.map(\.signedDate).max() ?? Timestamp(milliseconds: 0)
    let notification = NotificationRecord(
        uuid: "v1-" + String(digest.prefix(32)), rawType: fields.v1Type ?? "", subtype: nil, version: "1",
        signedDate: signedDate, receivedAt: receivedAt, rawEnvironment: environment, transaction: main,
        rawConsumptionRequestReason: nil, source: location)
    return DecodedNotification(notification: notification, otherTransactions: others)
}

/// One line of a history export: a page of signed transactions, one signed transaction, or a
/// decoded transaction object.
package func decodeHistoryLine(
    _ bytes: UnsafeRawBufferPointer, at location: SourceLocation, verifier: JWSVerifier
) throws(AppStoreDecodingError) -> [TransactionRecord] {
    var inline = TransactionFields()
    var signed: [TransactionFields] = []
    var sawSigned = false
    do {
        var cursor = JSONCursor(bytes)
        try cursor.members { cursor, key in
            if key == "signedTransactions" {
                sawSigned = true
                try cursor.elements { cursor, _ in signed.append(try TransactionFields.signed(&cursor, verifier: verifier)) }
            } else if key == "signedTransaction" {
                sawSigned = true
                signed.append(try TransactionFields.signed(&cursor, verifier: verifier))
            } else if try !inline.read(key, &cursor) {
                try cursor.skip()
            }
        }
        try cursor.finish()
    } catch let error as JWSError {
        throw AppStoreDecodingError(field: "signedTransactions", reason: error.description)
    } catch {
        throw AppStoreDecodingError(error)
    }
    if inline.transactionId != nil {
        verifier.countDecoded()
        return [try inline.record(fallbackSignedDate: nil, at: location)]
    }
    guard sawSigned else {
        throw AppStoreDecodingError(
            field: "", reason: "not a transaction: no signedTransactions, signedTransaction or transactionId")
    }
    var records: [TransactionRecord] = []
    for (index, fields) in signed.enumerated() {
        do {
            records.append(try fields.record(fallbackSignedDate: nil, at: location))
        } catch {
            throw AppStoreDecodingError(field: "signedTransactions[\(index)].\(error.field)", reason: error.reason)
        }
    }
    return records
}
