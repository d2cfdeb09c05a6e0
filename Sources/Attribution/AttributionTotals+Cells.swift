import Ingest
import Ledger
import Support

/// One cell of `cost_by_day.csv`.
package struct DayCell: Sendable, Hashable, Codable {
    package var rows = 0
    package var cost = Money.zero

    /// Counts one row of `amount`.
    mutating func add(_ amount: Money) throws(MoneyError) {
        rows += 1
        cost = try cost.adding(amount)
    }
}

/// Cost after one transaction's access ended, for one account, split by notice and grace.
package struct LeakCell: Sendable, Hashable, Codable {
    package var byPhase = [Money](repeating: .zero, count: LeakPhase.allCases.count)
    package var first = Timestamp(milliseconds: .max)
    package var last = Timestamp(milliseconds: .min)

    mutating func add(_ amount: Money, phase: LeakPhase, at t: Timestamp) throws(MoneyError) {
        byPhase[phase.rawValue] = try byPhase[phase.rawValue].adding(amount)
        first = min(first, t)
        last = max(last, t)
    }

    mutating func add(_ other: LeakCell) throws(MoneyError) {
        for index in byPhase.indices { byPhase[index] = try byPhase[index].adding(other.byPhase[index]) }
        first = min(first, other.first)
        last = max(last, other.last)
    }
}

/// Leaked cost of an auto-renewable subscription over its whole history, by billing period
/// after the access ended, and in the last 7 and 30 days before the window's end.
struct SubscriptionLeakCell: Sendable, Hashable, Codable {
    var byPeriod: [Int64: Money] = [:]
    package var total = Money.zero
    var last7Days = Money.zero
    var last30Days = Money.zero
    package var inWindow = Money.zero
    /// The same three for the calendar month before the window (the headline's comparison).
    var inPreviousMonth = Money.zero
    var last7DaysOfPreviousMonth = Money.zero
    var last30DaysOfPreviousMonth = Money.zero

    mutating func add(_ other: SubscriptionLeakCell) throws(MoneyError) {
        for (period, amount) in other.byPeriod { byPeriod[period] = try (byPeriod[period] ?? .zero).adding(amount) }
        total = try total.adding(other.total)
        last7Days = try last7Days.adding(other.last7Days)
        last30Days = try last30Days.adding(other.last30Days)
        inWindow = try inWindow.adding(other.inWindow)
        inPreviousMonth = try inPreviousMonth.adding(other.inPreviousMonth)
        last7DaysOfPreviousMonth = try last7DaysOfPreviousMonth.adding(other.last7DaysOfPreviousMonth)
        last30DaysOfPreviousMonth = try last30DaysOfPreviousMonth.adding(other.last30DaysOfPreviousMonth)
    }
}
