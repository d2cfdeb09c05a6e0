import Ingest
import Support

/// Encodes generated notifications the way Apple sends them: JWS signed ES256 with a full
/// three-certificate `x5c` chain (the dataset's own test chain), so generated files have the
/// size and shape of real ones.
struct NotificationEncoder {
    let signer: TestChain.Signer

    static let bundleID = "com.example.app"

    /// One delivery of a notification, its text made only when it is written: a million
    /// accounts' signed lines do not fit in memory together.
    struct Line {
        var signed: Int64
        var received: Int64
        /// Which of the notifications it delivers.
        var notification: Int
        /// The V1 `notification_type` when it is delivered as a V1 body.
        var v1Type: String?
    }

    /// What a line says: the text and, for the CSV export form, the signedPayload (nil for V1
    /// bodies).
    func text(_ line: Line, _ notifications: [SyntheticNotification]) -> (text: String, jws: String?) {
        let notification = notifications[line.notification]
        if let v1Type = line.v1Type { return (v1Body(notification, type: v1Type, received: line.received), nil) }
        let signed = jws(notificationPayload(notification))
        return (v2Body(signed, received: line.received), signed)
    }

    /// One line per notification delivery: some are retried (the same body again, received
    /// later) and, in the first month, some subscription events are V1 bodies.
    func lines(_ notifications: [SyntheticNotification], windowStart: Int64, random: inout SeededRandom)
        -> (lines: [Line], counts: [String: Int])
    {
        var lines: [Line] = []
        var counts: [String: Int] = [:]
        let firstMonthEnd = CivilDate.addingMonths(Timestamp(milliseconds: windowStart), 1).milliseconds
        for (index, notification) in notifications.enumerated() {
            let received = notification.signed + random.between(1000, 30_000)
            let transaction = notification.transaction
            let v1Type: String? =
                switch notification.type {
                case .subscribed: "INITIAL_BUY"
                case .didRenew: "DID_RENEW"
                case .refund: "CANCEL"
                default: nil
                }
            if let v1Type, notification.signed >= windowStart - 30 * ScenarioBuilder.day, notification.signed < firstMonthEnd,
                transaction.type == .autoRenewable, transaction.ownership == .purchased, notification.environment == "Production",
                random.chance(15)
            {
                counts["v1_notification", default: 0] += 1
                lines.append(Line(signed: notification.signed, received: received, notification: index, v1Type: v1Type))
                continue
            }
            lines.append(Line(signed: notification.signed, received: received, notification: index))
            if random.chance(6) {
                // Apple retries after 1, 12, 24... hours when the server did not answer in time.
                counts["duplicate_notification", default: 0] += 1
                let retry = received + [1, 12, 24][random.weighted([60, 30, 10])] * ScenarioBuilder.hour
                lines.append(Line(signed: notification.signed, received: retry, notification: index))
            }
        }
        return (lines, counts)
    }

    private func v2Body(_ signed: String, received: Int64) -> String {
        var body = JSONObjectBuilder()
        body.string("signedPayload", signed)
        body.string("receivedAt", Timestamp(milliseconds: received).description)
        return body.object.compact
    }

    func jws(_ payload: [UInt8]) -> String { signer.sign(payload) }

    static func transactionPayload(_ transaction: SyntheticTransaction, signed: Int64) -> [UInt8] {
        var json = JSONObjectBuilder()
        json.string("transactionId", transaction.id)
        json.string("originalTransactionId", transaction.originalID)
        json.string("webOrderLineItemId", transaction.webOrderLineItemID)
        json.string("bundleId", bundleID)
        json.string("productId", transaction.productID)
        json.string("subscriptionGroupIdentifier", transaction.groupID)
        json.integer("purchaseDate", transaction.purchase)
        json.integer("originalPurchaseDate", transaction.purchase)
        json.integer("expiresDate", transaction.expires)
        json.integer("quantity", transaction.quantity)
        json.string("type", transaction.type.rawValue)
        json.string("appAccountToken", transaction.token)
        json.string("inAppOwnershipType", transaction.ownership.rawValue)
        json.integer("signedDate", signed)
        json.integer("revocationReason", transaction.revocationReason.map { Int64($0.rawValue) })
        json.integer("revocationDate", transaction.revocationDate)
        if transaction.isUpgraded { json.bool("isUpgraded", true) }
        json.string("revocationType", transaction.revocationType?.rawValue)
        json.integer("revocationPercentage", transaction.revocationPercentage)
        json.string("environment", transaction.environment)
        json.string("transactionReason", transaction.purchase == transaction.expires ? "RENEWAL" : "PURCHASE")
        json.string("storefront", transaction.currency == "EUR" ? "DEU" : "USA")
        json.string("storefrontId", transaction.currency == "EUR" ? "143443" : "143441")
        json.integer("price", transaction.price)
        json.string("currency", transaction.currency)
        json.string("appTransactionId", transaction.appTransactionID)
        return json.bytes
    }

    private func notificationPayload(_ notification: SyntheticNotification) -> [UInt8] {
        var data = JSONObjectBuilder()
        data.integer("appAppleId", 1_234_567_890)
        data.string("bundleId", Self.bundleID)
        data.string("bundleVersion", "42")
        data.string("environment", notification.environment)
        data.string("signedTransactionInfo", jws(Self.transactionPayload(notification.transaction, signed: notification.signed)))
        if notification.transaction.type == .autoRenewable { data.integer("status", 1) }
        if let renewal = notification.renewal { data.string("signedRenewalInfo", jws(Self.renewalPayload(renewal))) }
        data.string("consumptionRequestReason", notification.consumptionReason?.rawValue)
        var json = JSONObjectBuilder()
        json.string("notificationType", notification.type.rawValue)
        json.string("subtype", notification.subtype?.rawValue)
        json.string("notificationUUID", notification.uuid)
        json.value("data", data.object)
        json.string("version", "2.0")
        json.integer("signedDate", notification.signed)
        return json.bytes
    }

    /// A V1 body: every receipt value is a string, dates in `*_ms` fields.
    private func v1Body(_ notification: SyntheticNotification, type: String, received: Int64) -> String {
        let transaction = notification.transaction
        var receipt = JSONObjectBuilder()
        receipt.string("transaction_id", transaction.id)
        receipt.string("original_transaction_id", transaction.originalID)
        receipt.string("product_id", transaction.productID)
        receipt.string("purchase_date_ms", String(transaction.purchase))
        receipt.string("expires_date_ms", transaction.expires.map { String($0) })
        receipt.string("cancellation_date_ms", transaction.revocationDate.map { String($0) })
        receipt.string("cancellation_reason", transaction.revocationReason.map { String($0.rawValue) })
        receipt.string("in_app_ownership_type", transaction.ownership.rawValue)
        receipt.string("web_order_line_item_id", transaction.webOrderLineItemID)
        receipt.string("app_account_token", transaction.token)
        receipt.string("quantity", String(transaction.quantity))
        var unified = JSONObjectBuilder()
        unified.value("latest_receipt_info", .array([receipt.object]))
        var body = JSONObjectBuilder()
        body.string("notification_type", type)
        body.string("environment", "PROD")
        body.string("receivedAt", Timestamp(milliseconds: received).description)
        body.value("unified_receipt", unified.object)
        return body.object.compact
    }

    /// Renewal info as Apple signs it: the grace period's end while the renewal is retried.
    static func renewalPayload(_ renewal: SyntheticRenewal) -> [UInt8] {
        var json = JSONObjectBuilder()
        json.string("originalTransactionId", renewal.originalID)
        json.string("autoRenewProductId", renewal.productID)
        json.string("productId", renewal.productID)
        json.integer("autoRenewStatus", 1)
        json.bool("isInBillingRetryPeriod", renewal.inBillingRetry)
        json.integer("gracePeriodExpiresDate", renewal.graceEnd)
        json.integer("signedDate", renewal.signed)
        json.string("environment", "Production")
        return json.bytes
    }
}
