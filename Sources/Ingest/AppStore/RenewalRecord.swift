import Support

/// One copy of a subscription's renewal info (`signedRenewalInfo`), as notifications and
/// subscription statuses carry it: what Apple knows about the next renewal, and in particular
/// the billing grace period (docs/domain.md rule 13).
package struct RenewalRecord: Sendable, Hashable, Codable {
    package var originalTransactionID: String
    package var productID: String?
    package var autoRenewStatus: Int64?
    var expirationIntent: Int64?
    package var isInBillingRetryPeriod: Bool?
    /// Access continues until this date while Apple retries the payment.
    package var gracePeriodExpiresDate: Timestamp?
    var renewalDate: Timestamp?
    package var signedDate: Timestamp
    package var rawEnvironment: String?
    /// The transaction the renewal info came with (a notification's or a status's), if any.
    package var transactionID: String?
    package var source: SourceLocation
}

/// Renewal info fields as read from JSON, every one optional until checked.
struct RenewalFields {
    var originalTransactionId: String?
    var productId: String?
    var autoRenewStatus: Int64?
    var expirationIntent: Int64?
    var isInBillingRetryPeriod: Bool?
    var gracePeriodExpiresDate: Timestamp?
    var renewalDate: Timestamp?
    var signedDate: Timestamp?
    var environment: String?
    var bundleId: String?

    /// A renewal info object.
    static func object(_ cursor: inout JSONCursor) throws -> RenewalFields {
        var fields = RenewalFields()
        try cursor.members { cursor, key in
            if key == "originalTransactionId" {
                fields.originalTransactionId = try cursor.optionalString()
            } else if key == "productId" {
                fields.productId = try cursor.optionalString()
            } else if key == "autoRenewStatus" {
                fields.autoRenewStatus = try cursor.optionalInteger()
            } else if key == "expirationIntent" {
                fields.expirationIntent = try cursor.optionalInteger()
            } else if key == "isInBillingRetryPeriod" {
                fields.isInBillingRetryPeriod = cursor.null() ? nil : try cursor.bool()
            } else if key == "gracePeriodExpiresDate" {
                fields.gracePeriodExpiresDate = try cursor.optionalTimestamp()
            } else if key == "renewalDate" {
                fields.renewalDate = try cursor.optionalTimestamp()
            } else if key == "signedDate" {
                fields.signedDate = try cursor.optionalTimestamp()
            } else if key == "environment" {
                fields.environment = try cursor.optionalString()
            } else if key == "bundleId" {
                fields.bundleId = try cursor.optionalString()
            } else {
                try cursor.skip()
            }
        }
        return fields
    }

    /// Renewal info given as a JWS string (checked by `verifier` unless an outer signature
    /// covers it), or as a decoded object.
    static func read(_ cursor: inout JSONCursor, verifier: JWSVerifier?) throws -> RenewalFields {
        guard cursor.isString() else { return try object(&cursor) }
        return try readSigned(&cursor, verifier: verifier, parse: { try object(&$0) }) {
            .init(signedDate: $0.signedDate, bundleID: $0.bundleId)
        }
    }

    /// The record, or nil when it lacks what renewal info is used for (an original
    /// transaction id and a signed date).
    func record(transactionID: String?, fallbackSignedDate: Timestamp?, at location: SourceLocation) -> RenewalRecord? {
        guard let original = originalTransactionId, !original.isEmpty, let signed = signedDate ?? fallbackSignedDate else {
            return nil
        }
        return RenewalRecord(
            originalTransactionID: original, productID: productId, autoRenewStatus: autoRenewStatus,
            expirationIntent: expirationIntent, isInBillingRetryPeriod: isInBillingRetryPeriod,
            gracePeriodExpiresDate: gracePeriodExpiresDate, renewalDate: renewalDate, signedDate: signed,
            rawEnvironment: environment, transactionID: transactionID, source: location)
    }
}
