/// Money per currency, summed exactly.
package struct CostTotals: Sendable, Hashable, Codable {
    // A handful of currencies at most: a short list searched in order beats hashing on the
    // per-row path.
    private var currencies: [CurrencyCode] = []
    private var amounts: [Money] = []

    package init() {}

    @inline(__always)
    package mutating func add(_ amount: Money, in currency: CurrencyCode) throws(MoneyError) {
        if let index = currencies.firstIndex(of: currency) {
            amounts[index] = try amounts[index].adding(amount)
        } else {
            currencies.append(currency)
            amounts.append(amount)
        }
    }

    package mutating func add(_ other: CostTotals) throws(MoneyError) {
        for (currency, amount) in zip(other.currencies, other.amounts) { try add(amount, in: currency) }
    }

    package var byCurrency: [CurrencyCode: Money] {
        Dictionary(uniqueKeysWithValues: zip(currencies, amounts))
    }

    /// Currencies in alphabetical order, for stable output.
    package var sorted: [(currency: CurrencyCode, amount: Money)] {
        zip(currencies, amounts).sorted { $0.0 < $1.0 }.map { ($0.0, $0.1) }
    }

    package static func == (lhs: CostTotals, rhs: CostTotals) -> Bool { lhs.byCurrency == rhs.byCurrency }
    package func hash(into hasher: inout Hasher) { hasher.combine(byCurrency) }
}
