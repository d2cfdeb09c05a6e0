import Ingest
import Ledger
import Support

/// One stretch of an account's access timeline: from `start` until the account's next
/// segment, a cost row of the account gets `costClass`, tied to `productID`.
///
/// What `export-access` writes, for audits and for checking attribution independently.
package struct AccessSegmentFigure: Sendable, Hashable {
    package var account: String
    /// Nil for the segment every account starts with, from the beginning of time.
    package var start: Timestamp?
    package var costClass: CostClass
    package var productID: String

    /// Every linked account's segments, accounts in ledger order.
    ///
    /// Each account starts with an `unentitled` segment; accounts not listed are `unlinked`.
    /// Credit-metered rows (rule 7) are settled separately and are not described here. `grace`
    /// is the report's (`--grace`): a leak's first hours are classed as the report classes them.
    package static func all(_ ledger: Ledger, grace: TimeSpan) -> [AccessSegmentFigure] {
        let classifier = Classifier(ledger: ledger, grace: grace)
        var segments: [AccessSegmentFigure] = []
        for (index, account) in ledger.accounts.enumerated() {
            segments.append(AccessSegmentFigure(account: account, start: nil, costClass: .unentitled, productID: ""))
            for (start, _) in ledger.timelines.segments(account: index) {
                let decided = classifier.classify(account: Int32(index), at: start)
                let product = decided.transaction.map { ledger.transactions[$0].productID } ?? ""
                segments.append(
                    AccessSegmentFigure(account: account, start: start, costClass: decided.costClass, productID: product))
            }
        }
        return segments
    }
}
