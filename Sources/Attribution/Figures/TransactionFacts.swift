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
    /// Nil for an `inAppOwnershipType` this version does not know (`rawOwnership` holds it).
    package var ownership: Ownership?
    package var rawOwnership: String?
    package var purchaseDate: Timestamp
    package var expiresDate: Timestamp?
    package var revocationDate: Timestamp?
    package var revocationReason: RevocationReason?
    package var revocationPercentage: Int?
    package var end: AccessEnd?
    package var store: Store

    package init(_ ledger: Ledger, transaction index: Int) {
        let transaction = ledger.transactions[index]
        let box = transaction.box
        id = box.record.transactionID
        originalID = box.record.originalTransactionID
        productID = box.record.productID
        productType = transaction.type?.rawValue ?? box.record.rawType ?? ""
        account = transaction.account.map { ledger.accounts[$0] }
        ownership = transaction.ownership
        rawOwnership = box.record.rawOwnership
        purchaseDate = box.record.purchaseDate
        expiresDate = box.record.expiresDate
        revocationDate = box.record.revocationDate
        revocationReason = box.record.revocationReason
        revocationPercentage = box.record.revocationPercentage
        end = transaction.end
        store = box.record.store
    }

    /// Who holds it, as reports write it: `purchased`, `family_shared`, or a value Apple added
    /// later as Apple sent it.
    package var ownershipName: String { ownership?.reportName ?? rawOwnership ?? "" }

    /// How the access ended, as reports write it (an upgrade reads as an expiry).
    package var endKind: EndKind { end?.kind.reported ?? .expiry }
}
