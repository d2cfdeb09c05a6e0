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

    package init(accounts: Int, seed: UInt64, months: Int = 3, costRowsPerAccount: Int = 20,
                 lastMonth: CivilDate = CivilDate(dayNumber: 20_727)) {
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

extension CivilDate {
    /// The first day of the month `offset` months from `date`'s month.
    package static func firstOfMonth(_ date: CivilDate, offset: Int) -> CivilDate {
        let index = date.year * 12 + (date.month - 1) + Int64(offset)
        let year = index >= 0 ? index / 12 : (index - 11) / 12
        return CivilDate(year: year, month: index - year * 12 + 1, day: 1) ?? date
    }

    /// The same day `count` months later, clamped to the month's last day (Jan 31 + 1 = Feb 28).
    package static func addingMonths(_ t: Timestamp, _ count: Int) -> Timestamp {
        let date = t.civilDate
        let first = firstOfMonth(date, offset: count)
        let day = min(date.day, daysIn(month: first.month, year: first.year))
        let target = CivilDate(year: first.year, month: first.month, day: day) ?? first
        return Timestamp(milliseconds: target.start.milliseconds + (t.milliseconds - date.start.milliseconds))
    }
}

/// What a generated dataset holds, counted by scenario so tests can check every one is there.
package struct GeneratorSummary: Sendable, Hashable {
    package var accounts = 0
    package var transactions = 0
    package var notificationLines = 0
    package var costRows = 0
    package var scenarios: [String: Int] = [:]
}
