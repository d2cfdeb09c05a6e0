import Attribution
import Ingest
import Ledger
import Support

/// The App Store side of a run, read and verified once: what `refund-cost snapshot` writes and
/// every partial and the merge read back, so that no task reads or verifies Apple's data again.
///
/// It holds the ledger's inputs (the latest copy of every transaction, the notifications, the
/// renewal info, the account links and products), the rates and the consumption evidence, the
/// input layout with the App Store files' checksums, and every line rejected while reading them.
/// The ledger itself is rebuilt from these in memory: that is fast, and it keeps one way of
/// building it.
package struct LedgerSnapshot: Codable, Sendable {
    package static let kind = "ledger snapshot"
    package static let version = 1

    package var options: LedgerLoad.Options
    package var layout: InputLayout
    package var input: AppStoreInput
    package var accountLinks: [AccountLinkRow]
    package var products: [String: Product]
    package var rates: ExchangeRates
    package var evidence: ConsumptionEvidence
    /// Everything rejected while the App Store side was read, in the order it was found.
    package var rejects: [Reject]
    /// The key of the request-id fingerprints every partial of this snapshot uses, so that
    /// their ids can be compared; drawn at random when the snapshot is made.
    package var requestKey: SipHash
}
