import Ingest

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
