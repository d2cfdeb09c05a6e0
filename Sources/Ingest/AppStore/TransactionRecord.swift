import Support

/// Where a record came from, for rejects, conflicts and `explain`.
package struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    package var file: String
    package var line: Int

    package init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line) < (rhs.file, rhs.line)
    }

    package var description: String { "\(file):\(line)" }
}

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

/// A transaction record held by reference, never changed in place: the copy ingestion keeps is
/// the one the ledger holds, not a second one.
///
/// Its accessors are inlined into other stages: a field read through it is then one load, not a
/// copy of the whole record.
package final class RecordBox: Sendable, Hashable, Codable {
    package let record: TransactionRecord

    package init(_ record: TransactionRecord) { self.record = record }

    package static func == (left: RecordBox, right: RecordBox) -> Bool { left.record == right.record }
    package func hash(into hasher: inout Hasher) { hasher.combine(record) }

    /// Coded as the record itself.
    package init(from decoder: any Decoder) throws {
        record = try decoder.singleValueContainer().decode(TransactionRecord.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(record)
    }
}

/// The few facts of a notification's transaction that the notification itself stands for:
/// which transaction, which product, and whether this copy shows a revocation or a family share.
///
/// A notification keeps only these, not a whole copy: millions of them are held at once.
package struct NotifiedTransaction: Sendable, Hashable, Codable {
    package var transactionID: String
    package var productID: String
    package var revocationDate: Timestamp?
    package var rawOwnership: String?

    package init(_ record: TransactionRecord) {
        transactionID = record.transactionID
        productID = record.productID
        revocationDate = record.revocationDate
        rawOwnership = record.rawOwnership
    }

    package var ownership: Ownership? { rawOwnership.flatMap(Ownership.init(rawValue:)) }
}

/// One App Store Server Notification, V2 or V1, as received.
package struct NotificationRecord: Sendable, Hashable, Codable {
    /// `notificationUUID`; V1 has none, so a digest of the body stands in (retries repeat it).
    package var uuid: String
    package var rawType: String
    package var subtype: String?
    /// `2.0` for V2, `1` for V1.
    package var version: String
    package var signedDate: Timestamp
    /// When the app's server received it, if the export says.
    package var receivedAt: Timestamp?
    package var rawEnvironment: String?
    /// What the notification says about its transaction; the transaction itself, like the
    /// renewal info it carried, is kept with the other copies of it.
    package var transaction: NotifiedTransaction?
    package var rawConsumptionRequestReason: String?
    package var source: SourceLocation

    package var type: NotificationType? {
        version == "1" ? NotificationType(v1: rawType) : NotificationType(rawValue: rawType)
    }
    package var environment: AppStoreEnvironment? { rawEnvironment.flatMap(AppStoreEnvironment.init(rawValue:)) }
    package var consumptionRequestReason: ConsumptionReason? {
        rawConsumptionRequestReason.flatMap(ConsumptionReason.init(rawValue:))
    }

    /// When the server could first know of it: received, else signed.
    package var noticeTime: Timestamp { receivedAt ?? signedDate }
}
