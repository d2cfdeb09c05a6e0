import Support

/// One V1 `latest_receipt_info` entry: every value a string, dates as `*_ms`.
struct V1Receipt {
    var transactionID: String?
    var originalTransactionID: String?
    var productID: String?
    var purchase: Int64?
    var expires: Int64?
    var cancellation: Int64?
    var cancellationReason: Int64?
    var ownership: String?
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
                // Checked like every receipt string, not kept: no rule reads it.
                _ = try cursor.string()
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

/// V1: every receipt becomes a transaction copy.
///
/// V1 signs nothing, so a copy is dated when it was received, else by the latest date it carries; the
/// notification is about the receipt that was cancelled, else the latest one.
func makeV1Notification(
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
                transactionID: id, originalTransactionID: receipt.originalTransactionID ?? id, productID: product,
                purchaseDate: purchase, expiresDate: expires, quantity: Int(receipt.quantity ?? 1),
                rawType: expires != nil ? ProductType.autoRenewable.rawValue : nil, appAccountToken: receipt.appAccountToken,
                rawOwnership: receipt.ownership ?? Ownership.purchased.rawValue,
                signedDate: receivedAt ?? max(purchase, cancellation ?? purchase),
                revocationDate: cancellation, rawRevocationReason: receipt.cancellationReason.map { Int($0) },
                rawRevocationType: nil,
                revocationPercentage: nil, isUpgraded: false, rawEnvironment: environment, price: nil, currency: nil,
                source: location))
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
        signedDate: signedDate, receivedAt: receivedAt, rawEnvironment: environment,
        transaction: main.map(NotifiedTransaction.init), rawConsumptionRequestReason: nil, source: location)
    return DecodedNotification(notification: notification, transaction: main, otherTransactions: others)
}
