import Ingest
import Ledger
import Support

/// Cost by class per original currency (the conservation check), as a short list: there are
/// few currencies, and this is on the per-row path.
struct CurrencyClassCosts: Sendable, Codable {
    package private(set) var currencies: [CurrencyCode] = []
    package private(set) var costs: [ClassCosts] = []

    package init() {}

    @inline(__always)
    mutating func add(_ amount: Money, in currency: CurrencyCode, to costClass: CostClass) throws(MoneyError) {
        if let index = currencies.firstIndex(of: currency) {
            try costs[index].add(amount, to: costClass)
        } else {
            var fresh = ClassCosts()
            try fresh.add(amount, to: costClass)
            currencies.append(currency)
            costs.append(fresh)
        }
    }

    mutating func add(_ other: CurrencyClassCosts) throws(MoneyError) {
        for (currency, classes) in zip(other.currencies, other.costs) {
            if let index = currencies.firstIndex(of: currency) {
                try costs[index].add(classes)
            } else {
                currencies.append(currency)
                costs.append(classes)
            }
        }
    }

    package subscript(currency: CurrencyCode) -> ClassCosts? {
        currencies.firstIndex(of: currency).map { costs[$0] }
    }

    package var keys: [CurrencyCode] { currencies }
}
