import Ingest
import Support

/// A billing grace period (docs/domain.md rule 13): `[start, end)` from the expiry of the period
/// whose renewal failed to the renewal info's `gracePeriodExpiresDate`.
package struct BillingGrace: Sendable, Hashable {
    package var start: Timestamp
    package var end: Timestamp
    /// The renewal of the same subscription bought before the grace ended (billing recovered):
    /// it pays for the grace.
    ///
    /// Nil: the grace was never paid (or is still running).
    package var recoveredBy: Int? {
        get { recoveringPlace < 0 ? nil : Int(recoveringPlace) }
        set { recoveringPlace = newValue.map { Int32($0) } ?? -1 }
    }
    /// `recoveredBy`, -1 for none: four bytes instead of nine, in every ledger transaction.
    private var recoveringPlace: Int32

    package init(start: Timestamp, end: Timestamp, recoveredBy: Int?) {
        self.start = start
        self.end = end
        self.recoveringPlace = recoveredBy.map { Int32($0) } ?? -1
    }

    /// True when `t` falls in the grace.
    package func contains(_ t: Timestamp) -> Bool { start <= t && t < end }
}
