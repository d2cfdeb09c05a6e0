import Support

/// A transaction payload's fields as read from JSON, every one optional until checked, so a
/// field Apple adds or leaves out never stops decoding.
///
/// `webOrderLineItemId`, `subscriptionGroupIdentifier`, `appTransactionId` and
/// `originalPurchaseDate` are checked (a wrong type or an absurd date is refused) but not kept:
/// no rule reads them, and a million records would carry them.
struct TransactionFields {
    var transactionId: String?
    var originalTransactionId: String?
    var productId: String?
    var purchaseDate: Timestamp?
    var expiresDate: Timestamp?
    var quantity: Int64?
    var type: String?
    var appAccountToken: String?
    var inAppOwnershipType: String?
    var signedDate: Timestamp?
    var revocationDate: Timestamp?
    var revocationReason: Int64?
    var revocationType: String?
    var revocationPercentage: Int64?
    var isUpgraded: Bool?
    var offerType: Int64?
    var offerDiscountType: String?
    var environment: String?
    var price: Int64?
    var currency: String?
    var bundleId: String?

    /// Apple sells at most 10 of a consumable at once; anything far above is not a quantity.
    static let largestQuantity: Int64 = 10_000
    /// A billion units of any currency in milliunits: far above any App Store price.
    static let largestPrice: Int64 = 1_000_000_000_000

    /// Reads the member if it is a transaction field; false leaves the value unread.
    mutating func read(_ key: JSONKey, _ cursor: inout JSONCursor) throws -> Bool {
        if key == "transactionId" {
            transactionId = try cursor.optionalString()
        } else if key == "originalTransactionId" {
            originalTransactionId = try cursor.optionalString()
        } else if key == "webOrderLineItemId" {
            try cursor.checkOptionalString()
        } else if key == "productId" {
            productId = try cursor.optionalString()
        } else if key == "subscriptionGroupIdentifier" {
            try cursor.checkOptionalString()
        } else if key == "purchaseDate" {
            purchaseDate = try cursor.optionalTimestamp()
        } else if key == "originalPurchaseDate" {
            _ = try cursor.optionalTimestamp()
        } else if key == "expiresDate" {
            expiresDate = try cursor.optionalTimestamp()
        } else if key == "quantity" {
            quantity = try cursor.optionalInteger()
        } else if key == "type" {
            type = try cursor.optionalString()
        } else if key == "appAccountToken" {
            appAccountToken = try cursor.optionalString()
        } else if key == "inAppOwnershipType" {
            inAppOwnershipType = try cursor.optionalString()
        } else if key == "signedDate" {
            signedDate = try cursor.optionalTimestamp()
        } else if key == "revocationDate" {
            revocationDate = try cursor.optionalTimestamp()
        } else if key == "revocationReason" {
            revocationReason = try cursor.optionalInteger()
        } else if key == "revocationType" {
            revocationType = try cursor.optionalString()
        } else if key == "revocationPercentage" {
            revocationPercentage = try cursor.optionalInteger()
        } else if key == "offerType" {
            offerType = try cursor.optionalInteger()
        } else if key == "offerDiscountType" {
            offerDiscountType = try cursor.optionalString()
        } else if key == "isUpgraded" {
            isUpgraded = cursor.null() ? nil : try cursor.bool()
        } else if key == "environment" {
            environment = try cursor.optionalString()
        } else if key == "price" {
            price = try cursor.optionalInteger()
        } else if key == "currency" {
            currency = try cursor.optionalString()
        } else if key == "appTransactionId" {
            try cursor.checkOptionalString()
        } else if key == "bundleId" {
            bundleId = try cursor.optionalString()
        } else {
            return false
        }
        return true
    }

    /// A whole transaction object.
    static func object(_ cursor: inout JSONCursor) throws -> TransactionFields {
        var fields = TransactionFields()
        try cursor.beginObject()
        while let key = try cursor.nextKey() {
            do {
                if try !fields.read(key, &cursor) { try cursor.skip() }
            } catch let error as JSONError {
                throw error.within(String(decoding: key.bytes, as: UTF8.self))
            }
        }
        return fields
    }

    /// A transaction given as a JWS string (checked by `verifier` unless an outer signature
    /// covers it), or as a decoded object.
    static func read(_ cursor: inout JSONCursor, verifier: JWSVerifier?) throws -> TransactionFields {
        guard cursor.isString() else { return try object(&cursor) }
        return try readSigned(&cursor, verifier: verifier, parse: { try object(&$0) }) {
            .init(signedDate: $0.signedDate, bundleID: $0.bundleId, kind: .transaction)
        }
    }

    /// Checks what the ledger cannot do without and makes the record.
    func record(fallbackSignedDate: Timestamp?, at location: SourceLocation) throws(AppStoreDecodingError) -> TransactionRecord {
        guard let id = transactionId, !id.isEmpty else {
            throw AppStoreDecodingError(field: "transactionId", reason: "a transaction without transactionId")
        }
        guard let product = productId, !product.isEmpty else {
            throw AppStoreDecodingError(field: "productId", reason: "transaction \(id) has no productId")
        }
        guard let purchaseDate else {
            throw AppStoreDecodingError(field: "purchaseDate", reason: "transaction \(id) has no purchaseDate")
        }
        guard let signed = signedDate ?? fallbackSignedDate else {
            throw AppStoreDecodingError(field: "signedDate", reason: "transaction \(id) has no signedDate to order its copies by")
        }
        if let quantity, !(1...TransactionFields.largestQuantity).contains(quantity) {
            throw AppStoreDecodingError(
                field: "quantity", reason: "\(quantity) is outside 1...\(TransactionFields.largestQuantity)")
        }
        if let price, abs(price) > TransactionFields.largestPrice {
            throw AppStoreDecodingError(
                field: "price", reason: "\(price) milliunits is beyond \(TransactionFields.largestPrice) (a billion units)")
        }
        if let percentage = revocationPercentage, !(0...100_000).contains(percentage) {
            throw AppStoreDecodingError(field: "revocationPercentage", reason: "\(percentage) is outside 0...100000 milliunits")
        }
        // A first purchase is its own original: the two ids then share one string (a 16-digit id
        // does not fit inside a String, so each copy would be memory of its own).
        let original = originalTransactionId.map { $0 == id ? id : $0 } ?? id
        return TransactionRecord(
            transactionID: id, originalTransactionID: original,
            productID: product, purchaseDate: purchaseDate, expiresDate: expiresDate, quantity: Int(quantity ?? 1), rawType: type,
            appAccountToken: appAccountToken, rawOwnership: inAppOwnershipType, signedDate: signed,
            revocationDate: revocationDate,
            rawRevocationReason: revocationReason.map { Int($0) }, rawRevocationType: revocationType,
            revocationPercentage: revocationPercentage.map { Int($0) }, isUpgraded: isUpgraded ?? false,
            rawEnvironment: environment,
            price: price, currency: currency, source: location,
            sampledFirst: offerType == 1 || offerDiscountType == "FREE_TRIAL")
    }
}

extension JSONCursor {
    mutating func optionalTimestamp() throws -> Timestamp? {
        if null() { return nil }
        return try timestamp()
    }

    mutating func optionalInteger() throws -> Int64? {
        if null() { return nil }
        return try integer()
    }
}
