import Ingest
import Ledger
import Support

/// One row of `family_links.csv`: a FAMILY_SHARED transaction and the purchase it was tied to.
package struct FamilyLinkFigure: Sendable {
    package var member: TransactionFacts
    package var purchaserTransactionID: String?
    package var method: FamilyLinkMethod

    init(ledger: Ledger, link: FamilyLink) {
        member = TransactionFacts(ledger, transaction: link.member)
        purchaserTransactionID = link.purchaser.map { ledger.transactions[$0].id }
        method = link.method
    }
}

/// Every FAMILY_SHARED transaction's figure, in ledger order, each worked out when it is read:
/// the file is written a row at a time, so the figures of every member are never held at once
/// (they are as many as the family members, and each names its transaction in full).
package struct FamilyLinkFigures: RandomAccessCollection, Sendable {
    private let ledger: Ledger

    init(ledger: Ledger) { self.ledger = ledger }

    package var startIndex: Int { 0 }
    package var endIndex: Int { ledger.familyLinks.count }
    package subscript(position: Int) -> FamilyLinkFigure {
        FamilyLinkFigure(ledger: ledger, link: ledger.familyLinks[position])
    }
}
