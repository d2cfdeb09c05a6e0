import Support

/// A sum over a set of cost rows that adds up exactly with the sum over another, disjoint set:
/// what every field of `AttributionTotals` is, so that two totals merge field by field, each by
/// its kind, whatever the order the parts are merged in.
protocol Mergeable {
    /// Adds `other` (over rows this one does not hold) into this one.
    mutating func merge(_ other: Self) throws(MoneyError)
}

extension Money: Mergeable {
    mutating func merge(_ other: Money) throws(MoneyError) { self = try adding(other) }
}

extension Int: Mergeable {
    mutating func merge(_ other: Int) { self += other }
}

/// Accounts and such: counted once, whichever part saw them.
extension Set: Mergeable {
    mutating func merge(_ other: Set<Element>) { formUnion(other) }
}

/// Per product or per transaction: both parts index the same ledger, so the arrays have one length.
extension Array: Mergeable where Element: Mergeable {
    mutating func merge(_ other: [Element]) throws(MoneyError) {
        precondition(count == other.count, "totals over the same ledger have arrays of one length")
        for index in indices { try self[index].merge(other[index]) }
    }
}

extension Dictionary: Mergeable where Value: Mergeable {
    mutating func merge(_ other: [Key: Value]) throws(MoneyError) {
        for (key, value) in other {
            if var mine = self[key] {
                try mine.merge(value)
                self[key] = mine
            } else {
                self[key] = value
            }
        }
    }
}

extension CostTotals: Mergeable {
    mutating func merge(_ other: CostTotals) throws(MoneyError) { try add(other) }
}

extension ClassCosts: Mergeable {
    mutating func merge(_ other: ClassCosts) throws(MoneyError) { try add(other) }
}

extension CurrencyClassCosts: Mergeable {
    mutating func merge(_ other: CurrencyClassCosts) throws(MoneyError) { try add(other) }
}

extension DayCell: Mergeable {
    mutating func merge(_ other: DayCell) throws(MoneyError) {
        rows += other.rows
        cost = try cost.adding(other.cost)
    }
}

extension LeakCell: Mergeable {
    mutating func merge(_ other: LeakCell) throws(MoneyError) { try add(other) }
}

extension SubscriptionLeakCell: Mergeable {
    mutating func merge(_ other: SubscriptionLeakCell) throws(MoneyError) { try add(other) }
}
