import Ingest
import Support

/// The generator's own view of a transaction: what it will encode into JWS payloads.
struct SyntheticTransaction {
    var id: String
    var originalID: String
    var productID: String
    var type: ProductType
    var ownership: Ownership
    var purchase: Int64
    var expires: Int64?
    var price: Int64
    var currency: String
    var quantity: Int64 = 1
    var token: String?
    var webOrderLineItemID: String?
    var appTransactionID: String
    var groupID: String?
    var revocationDate: Int64?
    var revocationReason: RevocationReason?
    var revocationType: RevocationType?
    var revocationPercentage: Int64?
    var isUpgraded = false
    var environment = "Production"
}

/// One notification the generator will write, with the transaction copy it carries.
struct SyntheticNotification {
    var type: NotificationType
    var subtype: NotificationSubtype?
    var signed: Int64
    var transaction: SyntheticTransaction
    var consumptionReason: ConsumptionReason?
    var uuid: String
    var environment = "Production"
    /// The renewal info the notification carries, for subscription events.
    var renewal: SyntheticRenewal?
}

/// Renewal info the generator writes: what the billing grace of a failed renewal needs.
struct SyntheticRenewal {
    var originalID: String
    var productID: String
    var graceEnd: Int64?
    var inBillingRetry: Bool
    var signed: Int64
}

/// A stretch of time during which the app's server served an account (and so spent money).
struct ServedSpan {
    var from: Int64
    var to: Int64
    /// Credit-metered use (a consumable purchase) rather than access-based use.
    var credits = false
}

/// The catalog the generator sells.
enum SyntheticCatalog {
    static let monthly = "com.example.pro.monthly"
    static let monthlyMax = "com.example.max.monthly"
    static let yearly = "com.example.pro.yearly"
    static let lifetime = "com.example.pro.lifetime"
    static let credits = "com.example.credits.500"
    static let group = "21400001"

    static let productsCSV = """
        product_id,type,period,credits
        com.example.credits.500,Consumable,,500
        com.example.max.monthly,Auto-Renewable Subscription,P1M,
        com.example.pro.lifetime,Non-Consumable,,
        com.example.pro.monthly,Auto-Renewable Subscription,P1M,
        com.example.pro.yearly,Auto-Renewable Subscription,P1Y,

        """

    static func price(_ product: String) -> Int64 {
        switch product {
        case monthly: 9990
        case monthlyMax: 19990
        case yearly: 79990
        case lifetime: 149_990
        default: 4990
        }
    }
}
