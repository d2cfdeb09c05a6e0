import Ingest
import Support

/// What ended a transaction's access (docs/domain.md rule 3).
package enum EndKind: String, Sendable, Hashable, CaseIterable {
    case refundFull = "refund_full"
    case refundProrated = "refund_prorated"
    case familyRefund = "family_refund"
    case familyExit = "family_exit"
    case expiry
    /// An upgrade inside the subscription group: not a refund, access goes on through the new
    /// transaction. Never written to a report as an end kind.
    case upgrade

    /// A refunded PURCHASED transaction's kind: prorated when Apple says so, else full (rule 3).
    package static func ofRefund(_ record: TransactionRecord) -> EndKind {
        record.revocationType == .refundProrated ? .refundProrated : .refundFull
    }

    /// As reports write it: an upgrade with no access after it reads as an expiry.
    package var reported: EndKind { self == .upgrade ? .expiry : self }
}

/// How and when a transaction's access ended, and when the app's server could first know.
package struct AccessEnd: Sendable, Hashable {
    package var kind: EndKind
    package var at: Timestamp
    /// The announcing notification's `receivedAt`, else its `signedDate`, else the `signedDate`
    /// of the first copy showing the revocation; for an expiry, the `expiresDate`.
    package var noticedAt: Timestamp
    package var notificationUUID: String?
}
