/// A notification as decoded from one line, with the other transaction copies the line
/// carried (V1 bodies list every receipt of the subscription).
struct DecodedNotification: Sendable {
    var notification: NotificationRecord
    var otherTransactions: [TransactionRecord] = []
}

/// Why one line of App Store data was refused: the field and a reason a person can act on.
struct AppStoreDecodingError: Error, Sendable, Hashable {
    var field: String
    var reason: String

    init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    init(_ error: JSONError, in container: String = "") {
        field = [container, error.field].filter { !$0.isEmpty }.joined(separator: ".")
        reason = error.reason
    }

    init(_ error: JWSError, field: String) {
        self.field = field
        reason = error.description
    }
}

/// The keys that tell which form a notification line has.
private struct NotificationLine: Decodable {
    var signedPayload: String?
    var receivedAt: AppleTimestamp?
    var notificationType: String?
    var notification_type: String?
}

func decodeNotificationLine(
    _ bytes: UnsafeRawBufferPointer, at location: SourceLocation
) -> Result<DecodedNotification, AppStoreDecodingError> {
    Result { () throws(AppStoreDecodingError) in
        let line: NotificationLine
        do throws(JSONError) { line = try JSON.decode(NotificationLine.self, from: bytes) } catch { throw AppStoreDecodingError(error) }
        if let signed = line.signedPayload {
            return try decodeSignedNotification(signed, receivedAt: line.receivedAt?.value, at: location)
        }
        if line.notificationType != nil {
            let payload: NotificationPayload
            do throws(JSONError) { payload = try JSON.decode(NotificationPayload.self, from: bytes) } catch { throw AppStoreDecodingError(error) }
            return try makeNotification(payload, receivedAt: line.receivedAt?.value, at: location)
        }
        if line.notification_type != nil {
            let body: NotificationV1Body
            do throws(JSONError) { body = try JSON.decode(NotificationV1Body.self, from: bytes) } catch { throw AppStoreDecodingError(error) }
            return try makeV1Notification(body, digest: Fingerprint(bytes), receivedAt: line.receivedAt?.value, at: location)
        }
        throw AppStoreDecodingError(
            field: "", reason: "not a notification: no signedPayload, notificationType or notification_type")
    }
}

func decodeSignedNotification(
    _ signed: String, receivedAt: Timestamp?, at location: SourceLocation
) throws(AppStoreDecodingError) -> DecodedNotification {
    let jws: JWS
    do throws(JWSError) { jws = try JWS(compact: signed) } catch { throw AppStoreDecodingError(error, field: "signedPayload") }
    let payload: NotificationPayload
    do throws(JSONError) {
        payload = try JSON.decode(NotificationPayload.self, from: jws.payload)
    } catch {
        throw AppStoreDecodingError(error, in: "signedPayload")
    }
    return try makeNotification(payload, receivedAt: receivedAt, at: location)
}

private func makeNotification(
    _ payload: NotificationPayload, receivedAt: Timestamp?, at location: SourceLocation
) throws(AppStoreDecodingError) -> DecodedNotification {
    guard let uuid = payload.notificationUUID, !uuid.isEmpty else {
        throw AppStoreDecodingError(field: "notificationUUID", reason: "missing: retries cannot be told apart without it")
    }
    guard let type = payload.notificationType else {
        throw AppStoreDecodingError(field: "notificationType", reason: "missing")
    }
    guard let signedDate = payload.signedDate?.value else {
        throw AppStoreDecodingError(field: "signedDate", reason: "missing: the as-of cut-off needs it")
    }
    var transaction: TransactionRecord?
    switch payload.data?.signedTransactionInfo {
    case .signed(let compact):
        let jws: JWS
        do throws(JWSError) { jws = try JWS(compact: compact) } catch { throw AppStoreDecodingError(error, field: "data.signedTransactionInfo") }
        let decoded: TransactionPayload
        do throws(JSONError) {
            decoded = try JSON.decode(TransactionPayload.self, from: jws.payload)
        } catch {
            throw AppStoreDecodingError(error, in: "data.signedTransactionInfo")
        }
        transaction = try makeTransaction(decoded, fallbackSignedDate: signedDate, at: location)
    case .decoded(let decoded):
        transaction = try makeTransaction(decoded, fallbackSignedDate: signedDate, at: location)
    case nil:
        transaction = nil
    }
    let notification = NotificationRecord(
        uuid: uuid, rawType: type, subtype: payload.subtype, version: payload.version ?? "2.0", signedDate: signedDate,
        receivedAt: receivedAt, rawEnvironment: payload.data?.environment, transaction: transaction,
        consumptionRequestReason: payload.data?.consumptionRequestReason, source: location)
    return DecodedNotification(notification: notification)
}

/// Maps a decoded transaction onto the record, checking what the ledger cannot do without.
func makeTransaction(
    _ payload: TransactionPayload, fallbackSignedDate: Timestamp?, at location: SourceLocation
) throws(AppStoreDecodingError) -> TransactionRecord {
    guard let id = payload.transactionId, !id.isEmpty else {
        throw AppStoreDecodingError(field: "transactionId", reason: "a transaction without transactionId")
    }
    guard let product = payload.productId, !product.isEmpty else {
        throw AppStoreDecodingError(field: "productId", reason: "transaction \(id) has no productId")
    }
    guard let purchaseDate = payload.purchaseDate?.value else {
        throw AppStoreDecodingError(field: "purchaseDate", reason: "transaction \(id) has no purchaseDate")
    }
    guard let signedDate = payload.signedDate?.value ?? fallbackSignedDate else {
        throw AppStoreDecodingError(field: "signedDate", reason: "transaction \(id) has no signedDate to order its copies by")
    }
    if let percentage = payload.revocationPercentage, !(0...100_000).contains(percentage) {
        throw AppStoreDecodingError(field: "revocationPercentage", reason: "\(percentage) is outside 0...100000 milliunits")
    }
    return TransactionRecord(
        transactionID: id, originalTransactionID: payload.originalTransactionId ?? id,
        webOrderLineItemID: payload.webOrderLineItemId, productID: product,
        subscriptionGroupIdentifier: payload.subscriptionGroupIdentifier, purchaseDate: purchaseDate,
        originalPurchaseDate: payload.originalPurchaseDate?.value, expiresDate: payload.expiresDate?.value,
        quantity: payload.quantity ?? 1, rawType: payload.type, appAccountToken: payload.appAccountToken,
        rawOwnership: payload.inAppOwnershipType, signedDate: signedDate, revocationDate: payload.revocationDate?.value,
        revocationReason: payload.revocationReason, rawRevocationType: payload.revocationType,
        revocationPercentage: payload.revocationPercentage, isUpgraded: payload.isUpgraded ?? false,
        rawEnvironment: payload.environment, price: payload.price, currency: payload.currency,
        appTransactionID: payload.appTransactionId, source: location)
}

/// V1: every receipt becomes a transaction copy. V1 signs nothing, so a copy is dated when it
/// was received, else by the latest date it carries; the notification is about the receipt
/// that was cancelled, else the latest one.
private func makeV1Notification(
    _ body: NotificationV1Body, digest: Fingerprint, receivedAt: Timestamp?, at location: SourceLocation
) throws(AppStoreDecodingError) -> DecodedNotification {
    guard let type = body.notification_type else {
        throw AppStoreDecodingError(field: "notification_type", reason: "missing")
    }
    let receipts = body.unified_receipt?.latest_receipt_info ?? []
    var transactions: [TransactionRecord] = []
    for (index, receipt) in receipts.enumerated() {
        let field = "unified_receipt.latest_receipt_info[\(index)]"
        guard let id = receipt.transaction_id, !id.isEmpty else {
            throw AppStoreDecodingError(field: field + ".transaction_id", reason: "a transaction without transaction_id")
        }
        guard let product = receipt.product_id, let purchase = receipt.purchase_date_ms?.value else {
            throw AppStoreDecodingError(field: field, reason: "receipt \(id) lacks product_id or purchase_date_ms")
        }
        let cancellation = receipt.cancellation_date_ms.map { Timestamp(milliseconds: $0.value) }
        let expires = receipt.expires_date_ms.map { Timestamp(milliseconds: $0.value) }
        let latestDate = max(Timestamp(milliseconds: purchase), cancellation ?? Timestamp(milliseconds: purchase))
        transactions.append(
            TransactionRecord(
                transactionID: id, originalTransactionID: receipt.original_transaction_id ?? id,
                webOrderLineItemID: receipt.web_order_line_item_id, productID: product,
                subscriptionGroupIdentifier: nil, purchaseDate: Timestamp(milliseconds: purchase), originalPurchaseDate: nil,
                expiresDate: expires, quantity: Int(receipt.quantity?.value ?? 1),
                rawType: expires != nil ? ProductType.autoRenewable.rawValue : nil,
                appAccountToken: receipt.app_account_token, rawOwnership: receipt.in_app_ownership_type ?? "PURCHASED",
                signedDate: receivedAt ?? latestDate, revocationDate: cancellation,
                revocationReason: receipt.cancellation_reason.map { Int($0.value) }, rawRevocationType: nil,
                revocationPercentage: nil, isUpgraded: false,
                rawEnvironment: body.environment.flatMap(AppStoreEnvironment.init(v1:))?.rawValue ?? body.environment,
                price: nil, currency: nil, appTransactionID: nil, source: location))
    }
    let mainIndex = transactions.indices.max { a, b in
        let left = (transactions[a].revocationDate != nil, transactions[a].purchaseDate, transactions[a].transactionID)
        let right = (transactions[b].revocationDate != nil, transactions[b].purchaseDate, transactions[b].transactionID)
        return (left.0 ? 1 : 0, left.1, left.2) < (right.0 ? 1 : 0, right.1, right.2)
    }
    let main = mainIndex.map { transactions[$0] }
    let others = mainIndex.map { index in transactions.enumerated().filter { $0.offset != index }.map(\.element) } ?? []
    let signedDate = receivedAt ?? transactions.map(\.signedDate).max() ?? Timestamp(milliseconds: 0)
    let environment = body.environment.flatMap(AppStoreEnvironment.init(v1:))?.rawValue ?? body.environment
    let notification = NotificationRecord(
        uuid: "v1-" + String(digest.value, radix: 16), rawType: type, subtype: nil, version: "1", signedDate: signedDate,
        receivedAt: receivedAt, rawEnvironment: environment, transaction: main, consumptionRequestReason: nil,
        source: location)
    return DecodedNotification(notification: notification, otherTransactions: others)
}

/// One line of a history export: a page of signed transactions, one signed transaction, or a
/// decoded transaction object.
func decodeHistoryLine(_ bytes: UnsafeRawBufferPointer, at location: SourceLocation) throws(AppStoreDecodingError)
    -> [TransactionRecord]
{
    let line: TransactionLine
    do throws(JSONError) { line = try JSON.decode(TransactionLine.self, from: bytes) } catch { throw AppStoreDecodingError(error) }
    if line.transactionId != nil {
        let payload: TransactionPayload
        do throws(JSONError) { payload = try JSON.decode(TransactionPayload.self, from: bytes) } catch { throw AppStoreDecodingError(error) }
        return [try makeTransaction(payload, fallbackSignedDate: nil, at: location)]
    }
    let signed = line.signedTransactions ?? line.signedTransaction.map { [$0] }
    guard let signed else {
        throw AppStoreDecodingError(field: "", reason: "not a transaction: no signedTransactions, signedTransaction or transactionId")
    }
    var records: [TransactionRecord] = []
    for (index, compact) in signed.enumerated() {
        let field = line.signedTransactions != nil ? "signedTransactions[\(index)]" : "signedTransaction"
        let jws: JWS
        do throws(JWSError) { jws = try JWS(compact: compact) } catch { throw AppStoreDecodingError(error, field: field) }
        let payload: TransactionPayload
        do throws(JSONError) { payload = try JSON.decode(TransactionPayload.self, from: jws.payload) } catch { throw AppStoreDecodingError(error, in: field) }
        records.append(try makeTransaction(payload, fallbackSignedDate: nil, at: location))
    }
    return records
}
