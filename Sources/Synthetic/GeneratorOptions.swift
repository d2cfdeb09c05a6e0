import Ingest
import Support

/// What `refund-cost generate` makes.
package struct GeneratorOptions: Sendable, Hashable {
    package var accounts: Int
    package var seed: UInt64
    /// Calendar months of cost and events, ending with `lastMonth`.
    package var months: Int
    /// Cost rows per account, spread over the time the app served it.
    package var costRowsPerAccount: Int
    package var lastMonth: CivilDate
    /// When false, credit-pack buyers' use is written as ordinary cost rows (no `credit` unit),
    /// so every row is classified by access alone (the benchmark's baseline needs that).
    package var creditMeteredUse = true
    /// Refund requests still open at the data's end (signed in its last hours, with consent),
    /// so `respond` on the set has work to do; none by default, so existing sets stay the same.
    package var openRequests = 0
    /// The shape the cost is written in (per-account rows by default).
    package var costForm = CostForm.rows
    /// Transaction histories written cut after their first transaction, with `hasMore` (none by default).
    package var cutHistories = 0
    /// What this run writes of the files that grow, by when their lines arrive (`--hold-after`,
    /// `--release-after`): everything, made anew, by default.
    package var slice = ReleaseSlice()
    /// Google Play's part too (`--stores apple,play`): `play/` and its accounts' cost rows.
    package var play = false

    package init(
        accounts: Int, seed: UInt64, months: Int = 3, costRowsPerAccount: Int = 20,
        lastMonth: CivilDate = CivilDate(dayNumber: 20_727)
    ) {
        self.accounts = accounts
        self.seed = seed
        self.months = months
        self.costRowsPerAccount = costRowsPerAccount
        self.lastMonth = lastMonth
    }

    /// First instant of the first month.
    var windowStart: Int64 { CivilDate.firstOfMonth(lastMonth, offset: -(months - 1)).start.milliseconds }
    /// First instant after the last month.
    var windowEnd: Int64 { CivilDate.firstOfMonth(lastMonth, offset: 1).start.milliseconds }
}

/// What a generated dataset holds, counted by scenario so tests can check every one is there.
package struct GeneratorSummary: Sendable, Hashable {
    package var accounts = 0
    package var transactions = 0
    package var notificationLines = 0
    package var costRows = 0
    package var scenarios: [String: Int] = [:]
    /// Lines this run wrote (or appended, releasing) to the files that grow.
    package var linesWritten = 0
}
