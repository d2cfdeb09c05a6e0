import Support

/// One copy of an App Store transaction, from a notification or a history export.
///
/// A transaction is seen many times; the ledger keeps, for each `transactionID`, the copy
/// with the latest `signedDate` not after the as-of time.
///
/// The ledger holds one record for every transaction for the whole run, so its layout is
/// compact: the strings first, then the times, the optional ones and the price stored with
/// a value no valid one takes for "none" (an `Optional` of 8 bytes takes 16), and the raw texts
/// Apple documents a few values of in a byte each (`RecordTexts`). The fields read and write,
/// and a record is coded, as they always have been.
package struct TransactionRecord: Sendable, Hashable, Codable {
    package var transactionID: String {
        get { packedTransactionID.text }
        set { packedTransactionID = PackedID(newValue) }
    }
    package var originalTransactionID: String {
        get { packedOriginalTransactionID.text }
        set { packedOriginalTransactionID = PackedID(newValue) }
    }
    /// `transactionID` and `originalTransactionID`, Apple's 16 digits kept inside the field:
    /// one block of memory less a transaction for the whole run (`PackedID`).
    package internal(set) var packedTransactionID: PackedID
    package internal(set) var packedOriginalTransactionID: PackedID
    package var productID: String
    package var appAccountToken: String?
    package var source: SourceLocation
    package var purchaseDate: Timestamp
    /// When Apple signed this copy; V1 receipts have none and use when they were received.
    package var signedDate: Timestamp
    package var quantity: Int
    private var expiresMilliseconds: Int64
    private var revocationMilliseconds: Int64
    private var priceMilliunits: Int64
    /// The raw texts that are none of the values Apple documents (`RecordTexts`); nil when none is.
    private var otherTexts: OtherTexts?
    private var revocationReasonCode: Int32
    private var revocationPercentageCode: Int32
    private var currencyLetters = RecordTexts.noLetters
    private var typeCode = RecordTexts.absent
    private var revocationTypeCode = RecordTexts.absent
    private var environmentCode = RecordTexts.absent
    private var ownershipCode = RecordTexts.absent
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
        packedTransactionID = PackedID(transactionID)
        packedOriginalTransactionID = PackedID(originalTransactionID)
        self.productID = productID
        self.appAccountToken = appAccountToken
        self.source = source
        self.purchaseDate = purchaseDate
        self.signedDate = signedDate
        self.quantity = quantity
        expiresMilliseconds = Self.none
        revocationMilliseconds = Self.none
        priceMilliunits = Self.none
        revocationReasonCode = Self.noCode
        revocationPercentageCode = Self.noCode
        self.isUpgraded = isUpgraded
        self.sampledFirst = sampledFirst
        self.store = store
        self.rawType = rawType
        self.rawRevocationType = rawRevocationType
        self.rawEnvironment = rawEnvironment
        self.rawOwnership = rawOwnership
        self.currency = currency
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.price = price
        self.rawRevocationReason = rawRevocationReason
        self.revocationPercentage = revocationPercentage
    }

    /// Apple's `type`, as it came.
    package var rawType: String? {
        get { text(typeCode, among: Self.types, other: .type) }
        set { typeCode = code(newValue, among: Self.types, other: .type) }
    }

    package var rawRevocationType: String? {
        get { text(revocationTypeCode, among: Self.revocationTypes, other: .revocationType) }
        set { revocationTypeCode = code(newValue, among: Self.revocationTypes, other: .revocationType) }
    }

    package var rawEnvironment: String? {
        get { text(environmentCode, among: Self.environments, other: .environment) }
        set { environmentCode = code(newValue, among: Self.environments, other: .environment) }
    }

    /// `inAppOwnershipType` as Apple sent it (`ownership` is its typed view): a value Apple adds
    /// later is kept, never refused and never read as one of the two this version knows.
    package var rawOwnership: String? {
        get { text(ownershipCode, among: Self.ownerships, other: .ownership) }
        set { ownershipCode = code(newValue, among: Self.ownerships, other: .ownership) }
    }

    package var currency: String? {
        get {
            switch currencyLetters {
            case RecordTexts.noLetters: nil
            case RecordTexts.otherLetters: otherTexts?.texts[.currency]
            default: RecordTexts.currency(currencyLetters)
            }
        }
        set {
            let letters = newValue.flatMap(RecordTexts.letters)
            currencyLetters = newValue == nil ? RecordTexts.noLetters : letters ?? RecordTexts.otherLetters
            otherTexts = OtherTexts.setting(.currency, to: letters == nil ? newValue : nil, in: otherTexts)
        }
    }

    /// The values Apple documents of each raw text field, in the order their codes give them.
    private static let types = ProductType.allCases.map(\.rawValue)
    private static let revocationTypes = RevocationType.allCases.map(\.rawValue)
    private static let environments = AppStoreEnvironment.allCases.map(\.rawValue)
    private static let ownerships = Ownership.allCases.map(\.rawValue)

    private func text(_ code: UInt8, among known: [String], other field: OtherTexts.Field) -> String? {
        code == RecordTexts.other ? otherTexts?.texts[field] : RecordTexts.text(code, among: known)
    }

    /// The code of `text`, keeping it among the other texts when Apple documents no such value.
    private mutating func code(_ text: String?, among known: [String], other field: OtherTexts.Field) -> UInt8 {
        let code = RecordTexts.code(text, among: known)
        otherTexts = OtherTexts.setting(field, to: code == RecordTexts.other ? text : nil, in: otherTexts)
        return code
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

    // Coded as when every field was stored: the same keys, in the same order, the same values.
    private enum CodingKeys: String, CodingKey {
        case transactionID, originalTransactionID, productID, rawType, appAccountToken, rawRevocationType, rawEnvironment
        case rawOwnership, currency, source, purchaseDate, signedDate, quantity, expiresMilliseconds, revocationMilliseconds
        case priceMilliunits, revocationReasonCode, revocationPercentageCode, isUpgraded, sampledFirst, store
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        packedTransactionID = try container.decode(PackedID.self, forKey: .transactionID)
        packedOriginalTransactionID = try container.decode(PackedID.self, forKey: .originalTransactionID)
        productID = try container.decode(String.self, forKey: .productID)
        let rawType = try container.decodeIfPresent(String.self, forKey: .rawType)
        appAccountToken = try container.decodeIfPresent(String.self, forKey: .appAccountToken)
        let rawRevocationType = try container.decodeIfPresent(String.self, forKey: .rawRevocationType)
        let rawEnvironment = try container.decodeIfPresent(String.self, forKey: .rawEnvironment)
        let rawOwnership = try container.decodeIfPresent(String.self, forKey: .rawOwnership)
        let currency = try container.decodeIfPresent(String.self, forKey: .currency)
        source = try container.decode(SourceLocation.self, forKey: .source)
        purchaseDate = try container.decode(Timestamp.self, forKey: .purchaseDate)
        signedDate = try container.decode(Timestamp.self, forKey: .signedDate)
        quantity = try container.decode(Int.self, forKey: .quantity)
        expiresMilliseconds = try container.decode(Int64.self, forKey: .expiresMilliseconds)
        revocationMilliseconds = try container.decode(Int64.self, forKey: .revocationMilliseconds)
        priceMilliunits = try container.decode(Int64.self, forKey: .priceMilliunits)
        revocationReasonCode = try container.decode(Int32.self, forKey: .revocationReasonCode)
        revocationPercentageCode = try container.decode(Int32.self, forKey: .revocationPercentageCode)
        isUpgraded = try container.decode(Bool.self, forKey: .isUpgraded)
        sampledFirst = try container.decode(Bool.self, forKey: .sampledFirst)
        store = try container.decode(Store.self, forKey: .store)
        self.rawType = rawType
        self.rawRevocationType = rawRevocationType
        self.rawEnvironment = rawEnvironment
        self.rawOwnership = rawOwnership
        self.currency = currency
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(packedTransactionID, forKey: .transactionID)
        try container.encode(packedOriginalTransactionID, forKey: .originalTransactionID)
        try container.encode(productID, forKey: .productID)
        try container.encodeIfPresent(rawType, forKey: .rawType)
        try container.encodeIfPresent(appAccountToken, forKey: .appAccountToken)
        try container.encodeIfPresent(rawRevocationType, forKey: .rawRevocationType)
        try container.encodeIfPresent(rawEnvironment, forKey: .rawEnvironment)
        try container.encodeIfPresent(rawOwnership, forKey: .rawOwnership)
        try container.encodeIfPresent(currency, forKey: .currency)
        try container.encode(source, forKey: .source)
        try container.encode(purchaseDate, forKey: .purchaseDate)
        try container.encode(signedDate, forKey: .signedDate)
        try container.encode(quantity, forKey: .quantity)
        try container.encode(expiresMilliseconds, forKey: .expiresMilliseconds)
        try container.encode(revocationMilliseconds, forKey: .revocationMilliseconds)
        try container.encode(priceMilliunits, forKey: .priceMilliunits)
        try container.encode(revocationReasonCode, forKey: .revocationReasonCode)
        try container.encode(revocationPercentageCode, forKey: .revocationPercentageCode)
        try container.encode(isUpgraded, forKey: .isUpgraded)
        try container.encode(sampledFirst, forKey: .sampledFirst)
        try container.encode(store, forKey: .store)
    }
}
