import Support

/// One copy of an App Store transaction, from a notification or a history export.
///
/// A transaction is seen many times; the ledger keeps, for each `transactionID`, the copy
/// with the latest `signedDate` not after the as-of time.
///
/// The ledger holds one record for every transaction for the whole run, so its layout is
/// compact: the strings first, then the times, the optional ones and the price stored with
/// a value no valid one takes for "none" (an `Optional` of 8 bytes takes 16). The fields read
/// and write as they always have.
package struct TransactionRecord: Sendable, Hashable, Codable {
    package var transactionID: String
    package var originalTransactionID: String
    package var productID: String
    package var rawType: String?
    package var appAccountToken: String?
    package var rawRevocationType: String?
    package var rawEnvironment: String?
    /// `inAppOwnershipType` as Apple sent it (`ownership` is its typed view): a value Apple adds
    /// later is kept, never refused and never read as one of the two this version knows.
    package var rawOwnership: String?
    package var currency: String?
    package var source: SourceLocation
    package var purchaseDate: Timestamp
    /// When Apple signed this copy; V1 receipts have none and use when they were received.
    package var signedDate: Timestamp
    package var quantity: Int
    private var expiresMilliseconds: Int64
    private var revocationMilliseconds: Int64
    private var priceMilliunits: Int64
    private var revocationReasonCode: Int32
    private var revocationPercentageCode: Int32
    package var isUpgraded: Bool
    /// Bought with an introductory offer (`offerType` 1) or a free trial (`offerDiscountType`
    /// `FREE_TRIAL`): the customer sampled the product first (Send Consumption Information's
    /// `sampleContentProvided`).
    package var sampledFirst = false
    /// The store it was bought in: a Google Play order is held in the ledger as a transaction
    /// too (docs/domain.md rule 16).
    package var store: Store = .appStore

    /// What marks an absent time or price: decoding refuses times outside 1970 to 2200 and
    /// prices beyond a billion units, so no real one is this (a time of exactly `Int64.min`
    /// milliseconds, 292 million years ago, would be kept one millisecond later).
    private static let none = Int64.min
    /// What marks an absent revocation reason or percentage (a reason is 0 or 1, a percentage
    /// 0 to 100,000 milliunits); a reason too large for 32 bits is kept as one no reason has.
    private static let noCode = Int32.min
    private static let unknownReason = Int32.max

    package init(
        transactionID: String, originalTransactionID: String, productID: String, purchaseDate: Timestamp,
        expiresDate: Timestamp?, quantity: Int, rawType: String?, appAccountToken: String?, rawOwnership: String?,
        signedDate: Timestamp, revocationDate: Timestamp?, rawRevocationReason: Int?, rawRevocationType: String?,
        revocationPercentage: Int?, isUpgraded: Bool, rawEnvironment: String?, price: Int64?, currency: String?,
        source: SourceLocation, sampledFirst: Bool = false, store: Store = .appStore
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.rawType = rawType
        self.appAccountToken = appAccountToken
        self.rawRevocationType = rawRevocationType
        self.rawEnvironment = rawEnvironment
        self.currency = currency
        self.source = source
        self.purchaseDate = purchaseDate
        self.signedDate = signedDate
        self.quantity = quantity
        expiresMilliseconds = Self.none
        revocationMilliseconds = Self.none
        priceMilliunits = Self.none
        revocationReasonCode = Self.noCode
        revocationPercentageCode = Self.noCode
        self.rawOwnership = rawOwnership
        self.isUpgraded = isUpgraded
        self.sampledFirst = sampledFirst
        self.store = store
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.price = price
        self.rawRevocationReason = rawRevocationReason
        self.revocationPercentage = revocationPercentage
    }

    package var expiresDate: Timestamp? {
        get { expiresMilliseconds == Self.none ? nil : Timestamp(milliseconds: expiresMilliseconds) }
        set { expiresMilliseconds = newValue.map { max($0.milliseconds, Self.none + 1) } ?? Self.none }
    }

    package var revocationDate: Timestamp? {
        get { revocationMilliseconds == Self.none ? nil : Timestamp(milliseconds: revocationMilliseconds) }
        set { revocationMilliseconds = newValue.map { max($0.milliseconds, Self.none + 1) } ?? Self.none }
    }

    /// Milliunits of `currency`, for the whole quantity.
    package var price: Int64? {
        get { priceMilliunits == Self.none ? nil : priceMilliunits }
        set { priceMilliunits = newValue.map { max($0, Self.none + 1) } ?? Self.none }
    }

    package var rawRevocationReason: Int? {
        get { revocationReasonCode == Self.noCode ? nil : Int(revocationReasonCode) }
        set { revocationReasonCode = newValue.map { Int32(exactly: $0) ?? Self.unknownReason } ?? Self.noCode }
    }

    package var revocationPercentage: Int? {
        get { revocationPercentageCode == Self.noCode ? nil : Int(revocationPercentageCode) }
        set { revocationPercentageCode = newValue.map { Int32(clamping: $0) } ?? Self.noCode }
    }

    /// Who holds it: nil when Apple sent no `inAppOwnershipType`, or one this version does not know.
    package var ownership: Ownership? { rawOwnership.flatMap(Ownership.init(rawValue:)) }

    package var type: ProductType? { rawType.flatMap(ProductType.init(rawValue:)) }
    package var revocationReason: RevocationReason? { rawRevocationReason.flatMap(RevocationReason.init(rawValue:)) }
    package var revocationType: RevocationType? { rawRevocationType.flatMap(RevocationType.init(rawValue:)) }
    package var environment: AppStoreEnvironment? { rawEnvironment.flatMap(AppStoreEnvironment.init(rawValue:)) }
}
