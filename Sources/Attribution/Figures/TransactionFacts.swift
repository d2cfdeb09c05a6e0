import Ingest
import Ledger
import Support

/// What the report files say about one transaction: who holds it, what it is, and how its
/// access ended.
///
/// Figures carry these, so the report stage never looks into the ledger.
package struct TransactionFacts: Sendable, Hashable {
    package var id: String
    package var originalID: String
    package var productID: String
    /// Apple's `type`, else the one from products.csv; empty when neither says.
    package var productType: String
    package var account: String?
    package var ownership: Ownership
    package var purchaseDate: Timestamp
    package var expiresDate: Timestamp?
    package var revocationDate: Timestamp?
    package var revocationReason: RevocationReason?
    package var revocationPercentage: Int?
    package var end: AccessEnd?

    package init(_ ledger: Ledger, transaction index: Int) {
        let transaction = ledger.transactions[index]
        let box = transaction.box
        id = box.record.transactionID
        originalID = box.record.originalTransactionID
        productID = box.record.productID
        productType = transaction.type?.rawValue ?? box.record.rawType ?? ""
        account = transaction.account.map { ledger.accounts[$0] }
        ownership = transaction.ownership
        purchaseDate = box.record.purchaseDate
        expiresDate = box.record.expiresDate
        revocationDate = box.record.revocationDate
        revocationReason = box.record.revocationReason
        revocationPercentage = box.record.revocationPercentage
        end = transaction.end
    }

    /// How the access ended, as reports write it (an upgrade reads as an expiry).
    package var endKind: EndKind { end?.kind.reported ?? .expiry }
}
