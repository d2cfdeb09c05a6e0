import Ingest
import Ledger
import Support

/// One row of `family_links.csv`: a FAMILY_SHARED transaction and the purchase it was tied to.
package struct FamilyLinkFigure: Sendable {
    package var member: TransactionFacts
    package var purchaserTransactionID: String?
    package var method: FamilyLinkMethod

    /// Every FAMILY_SHARED transaction, in ledger order.
    static func all(ledger: Ledger) -> [FamilyLinkFigure] {
        ledger.familyLinks.map { link in
            FamilyLinkFigure(
                member: TransactionFacts(ledger, transaction: link.member),
                purchaserTransactionID: link.purchaser.map { ledger.transactions[$0].id }, method: link.method)
        }
    }
}
