import Support

/// One copy of an App Store transaction, from a notification or a history export.
///
/// A transaction is seen many times; the ledger keeps, for each `transactionID`, the copy
/// with the latest `signedDate` not after the as-of time.
package struct TransactionRecord: Sendable, Hashable, Codable {
    package var transactionID: String
    package var originalTransactionID: String
    package var productID: String
    package var purchaseDate: Timestamp
    package var expiresDate: Timestamp?
    package var quantity: Int
    package var rawType: String?
    package var appAccountToken: String?
    package var rawOwnership: String?
    /// When Apple signed this copy; V1 receipts have none and use when they were received.
    package var signedDate: Timestamp
    package var revocationDate: Timestamp?
    package var rawRevocationReason: Int?
    package var rawRevocationType: String?
    package var revocationPercentage: Int?
    package var isUpgraded: Bool
    package var rawEnvironment: String?
    /// Milliunits of `currency`, for the whole quantity.
    package var price: Int64?
    package var currency: String?
    package var source: SourceLocation
    /// Bought with an introductory offer (`offerType` 1) or a free trial (`offerDiscountType`
    /// `FREE_TRIAL`): the customer sampled the product first (Send Consumption Information's
    /// `sampleContentProvided`).
    package var sampledFirst = false

    package var type: ProductType? { rawType.flatMap(ProductType.init(rawValue:)) }
    package var ownership: Ownership? { rawOwnership.flatMap(Ownership.init(rawValue:)) }
    package var revocationReason: RevocationReason? { rawRevocationReason.flatMap(RevocationReason.init(rawValue:)) }
    package var revocationType: RevocationType? { rawRevocationType.flatMap(RevocationType.init(rawValue:)) }
    package var environment: AppStoreEnvironment? { rawEnvironment.flatMap(AppStoreEnvironment.init(rawValue:)) }
}
