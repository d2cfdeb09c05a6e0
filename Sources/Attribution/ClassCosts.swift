import Ingest
import Ledger
import Support

/// Money per cost class, in report order.
package struct ClassCosts: Sendable, Hashable, Codable {
    package var amounts = [Money](repeating: .zero, count: CostClass.allCases.count)

    package init() {}

    package subscript(costClass: CostClass) -> Money { amounts[costClass.rawValue] }

    package func total() throws(MoneyError) -> Money {
        var sum = Money.zero
        for amount in amounts { sum = try sum.adding(amount) }
        return sum
    }

    mutating func add(_ amount: Money, to costClass: CostClass) throws(MoneyError) {
        amounts[costClass.rawValue] = try amounts[costClass.rawValue].adding(amount)
    }

    mutating func add(_ other: ClassCosts) throws(MoneyError) {
        for index in amounts.indices { amounts[index] = try amounts[index].adding(other.amounts[index]) }
    }
}
