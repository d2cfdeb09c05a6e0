import Ingest
import Ledger
import Support

/// How many credits of each pack were drawn, and when: what a consumption request's
/// `consumptionPercentage` is computed from.
package struct CreditDraws: Sendable {
    /// Per pack transaction: (time, credits drawn in nano-units), in time order.
    package var draws: [Int: [(at: Timestamp, nanos: Int64)]] = [:]

    /// Credits drawn from the pack at or before `t`, in nano-units.
    package func drawn(fromTransaction transaction: Int, through t: Timestamp) -> Int64 {
        (draws[transaction] ?? []).reduce(0) { $1.at <= t ? $0 + $1.nanos : $0 }
    }
}
