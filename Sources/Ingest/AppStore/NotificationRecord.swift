import Support

/// The few facts of a notification's transaction that the notification itself stands for:
/// which transaction, which product, and whether this copy shows a revocation or a family share.
///
/// A notification keeps only these, not a whole copy: millions of them are held at once.
package struct NotifiedTransaction: Sendable, Hashable, Codable {
    package var transactionID: String {
        get { packedTransactionID.text }
        set { packedTransactionID = PackedID(newValue) }
    }
    /// `transactionID` as the record keeps it (`PackedID`).
    package private(set) var packedTransactionID: PackedID
    package var productID: String
    package var revocationDate: Timestamp?
    package var rawOwnership: String?

    package init(_ record: TransactionRecord) {
        packedTransactionID = record.packedTransactionID
        productID = record.productID
        revocationDate = record.revocationDate
        rawOwnership = record.rawOwnership
    }

    // Coded as when the id was stored as text: the same keys, in the same order.
    private enum CodingKeys: String, CodingKey {
        case packedTransactionID = "transactionID"
        case productID, revocationDate, rawOwnership
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
