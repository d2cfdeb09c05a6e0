import Ingest
import Ledger
import Support

/// Apple's `refundPreference` values.
package enum RefundPreference: String, Sendable, Hashable, CaseIterable {
    case decline = "DECLINE"
    case grantFull = "GRANT_FULL"
    case grantProrated = "GRANT_PRORATED"
}

/// How a refund request ended, as far as the data shows.
package enum ConsumptionOutcome: String, Sendable, Hashable {
    case granted
    case declined
    case pending
}

/// Thresholds for choosing a refund preference; the defaults are documented in docs/outputs.md.
package struct ConsumptionPolicy: Sendable, Hashable, Codable {
    /// Use at or above this share (milliunits) counts as heavy: an unsatisfied customer who used
    /// this much leans DECLINE, and so does an "unintended" purchase used this much.
    package var heavyUse: Int64 = 50_000

    package init(heavyUse: Int64 = 50_000) {
        self.heavyUse = heavyUse
    }
}
