/// The decoded payload of Apple's `JWSTransaction`, every field optional: what is missing
/// is checked where it matters, and fields Apple adds later are ignored.
struct TransactionPayload: Decodable, Sendable {
    var transactionId: String?
    var originalTransactionId: String?
    var webOrderLineItemId: String?
    var productId: String?
    var subscriptionGroupIdentifier: String?
    var purchaseDate: AppleTimestamp?
    var originalPurchaseDate: AppleTimestamp?
    var expiresDate: AppleTimestamp?
    var quantity: Int?
    var type: String?
    var appAccountToken: String?
    var inAppOwnershipType: String?
    var signedDate: AppleTimestamp?
    var revocationDate: AppleTimestamp?
    var revocationReason: Int?
    var revocationType: String?
    var revocationPercentage: Int?
    var isUpgraded: Bool?
    var environment: String?
    var price: Int64?
    var currency: String?
    var appTransactionId: String?
}

/// The decoded payload of a V2 notification (`responseBodyV2DecodedPayload`).
struct NotificationPayload: Decodable, Sendable {
    var notificationType: String?
    var subtype: String?
    var notificationUUID: String?
    var version: String?
    var signedDate: AppleTimestamp?
    var data: NotificationData?
}

/// `data` of a V2 notification. The transaction and renewal info are JWS strings as Apple
/// sends them, or already decoded objects in exports that decoded them.
struct NotificationData: Decodable, Sendable {
    var environment: String?
    var bundleId: String?
    var appAppleId: Int64?
    var signedTransactionInfo: SignedOrDecoded<TransactionPayload>?
    var status: Int?
    var consumptionRequestReason: String?
}

/// A payload given either as a JWS string or as the object it carries.
enum SignedOrDecoded<Payload: Decodable & Sendable>: Decodable, Sendable {
    case signed(String)
    case decoded(Payload)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .signed(text)
        } else {
            self = .decoded(try container.decode(Payload.self))
        }
    }
}

/// A V1 notification body (deprecated in 2023, still found in older exports).
struct NotificationV1Body: Decodable, Sendable {
    var notification_type: String?
    var environment: String?
    var unified_receipt: UnifiedReceipt?

    struct UnifiedReceipt: Decodable, Sendable {
        var latest_receipt_info: [ReceiptInfo]?
    }

    /// V1 writes every value as a string, dates as `*_ms` milliseconds.
    struct ReceiptInfo: Decodable, Sendable {
        var transaction_id: String?
        var original_transaction_id: String?
        var product_id: String?
        var purchase_date_ms: LenientInteger?
        var expires_date_ms: LenientInteger?
        var cancellation_date_ms: LenientInteger?
        var cancellation_reason: LenientInteger?
        var in_app_ownership_type: String?
        var web_order_line_item_id: String?
        var app_account_token: String?
        var quantity: LenientInteger?
    }
}

/// One line of a transaction-history export: a history page, one signed transaction, or a
/// decoded transaction object.
struct TransactionLine: Decodable, Sendable {
    var signedTransactions: [String]?
    var signedTransaction: String?
    var transactionId: String?
}
