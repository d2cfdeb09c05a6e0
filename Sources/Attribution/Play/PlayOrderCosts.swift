import Ingest
import Ledger
import Support

/// What one account's delivery cost came to while each of its Google Play orders gave access:
/// its cost rows from the order's start to its end (a void of the whole order, a subscription
/// period's end), or to the as-of time for an order that lasts.
///
/// Each order counts every row in its window: windows of orders held at once overlap, so
/// their sums are not to be added up.
package struct PlayOrderCosts: CostRowSink {
    package private(set) var spent: [Money]
    package private(set) var rows: [Int]
    private let windows: [(start: Timestamp, end: Timestamp)]
    private let wanted: [UInt8]
    private let rates: ExchangeRates

    package init(account: String, orders: [PlayOrderAccess], asOf: Timestamp, rates: ExchangeRates) {
        windows = orders.map { ($0.start, min($0.end ?? asOf, asOf)) }
        spent = Array(repeating: .zero, count: orders.count)
        rows = Array(repeating: 0, count: orders.count)
        wanted = Array(account.utf8)
        self.rates = rates
    }

    package func emptyCopy() -> PlayOrderCosts {
        var copy = self
        copy.spent = Array(repeating: .zero, count: windows.count)
        copy.rows = Array(repeating: 0, count: windows.count)
        return copy
    }

    package mutating func begin(part: Int) throws {}

    package mutating func add(_ row: CostRow) throws {
        guard row.accountID.elementsEqual(wanted) else { return }
        var amount: Money?
        for (index, window) in windows.enumerated() where window.start <= row.timestamp && row.timestamp < window.end {
            let converted = try amount ?? rates.reportAmount(row.cost, from: row.currency, onDay: row.timestamp.dayNumber)
            amount = converted
            spent[index] = try spent[index].adding(converted)
            rows[index] += 1
        }
    }

    /// Every thread's copy added up.
    package static func merged(_ parts: [PlayOrderCosts], template: PlayOrderCosts) throws -> PlayOrderCosts {
        var all = template.emptyCopy()
        for part in parts {
            for index in all.spent.indices {
                all.spent[index] = try all.spent[index].adding(part.spent[index])
                all.rows[index] += part.rows[index]
            }
        }
        return all
    }
}
