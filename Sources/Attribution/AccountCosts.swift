import Ingest
import Ledger
import Support

/// One account's cost rows, classified as the report classifies them, summed by class and by
/// the transaction each row is tied to: the cost part of `explain`.
///
/// A `CostRowSink`: the pipeline's cost reading hands it every accepted row (checked, converted
/// and deduplicated as a report does) on every thread; each thread's copy keeps the rows of one
/// account, and the copies are added up with `merged`.
package struct AccountCosts: CostRowSink {
    package private(set) var byClass = ClassCosts()
    /// Per tied transaction index (nil for none), cost by class.
    package private(set) var byTransaction: [Int?: ClassCosts] = [:]
    package private(set) var rows = 0
    package private(set) var first: Timestamp?
    package private(set) var last: Timestamp?

    private let classifier: Classifier
    private let account: Int32?
    private let wanted: [UInt8]
    private let asOf: Timestamp
    private let rates: ExchangeRates

    /// The sink of `accountID`'s rows up to the ledger's as-of time.
    package init(accountID: String, ledger: Ledger, rates: ExchangeRates, grace: TimeSpan) {
        classifier = Classifier(ledger: ledger, grace: grace)
        account = ledger.accountIndex(of: accountID).map { Int32($0) }
        wanted = Array(accountID.utf8)
        asOf = ledger.options.asOf
        self.rates = rates
    }

    package func emptyCopy() -> AccountCosts {
        var copy = self
        copy.byClass = ClassCosts()
        copy.byTransaction = [:]
        copy.rows = 0
        copy.first = nil
        copy.last = nil
        return copy
    }

    package mutating func begin(part: Int) throws {}

    package mutating func add(_ row: CostRow) throws {
        guard row.accountID.elementsEqual(wanted), row.timestamp <= asOf else { return }
        let amount = try rates.reportAmount(row.cost, from: row.currency, onDay: row.timestamp.dayNumber)
        let decided = classifier.classify(account: account, at: row.timestamp)
        try byClass.add(amount, to: decided.costClass)
        try byTransaction[decided.transaction, default: ClassCosts()].add(amount, to: decided.costClass)
        rows += 1
        first = min(first ?? row.timestamp, row.timestamp)
        last = max(last ?? row.timestamp, row.timestamp)
    }

    /// Every thread's copy added up (the order does not matter: sums, a minimum and a maximum).
    package static func merged(_ parts: [AccountCosts], template: AccountCosts) throws -> AccountCosts {
        var all = template.emptyCopy()
        for part in parts {
            try all.byClass.add(part.byClass)
            for (transaction, costs) in part.byTransaction {
                try all.byTransaction[transaction, default: ClassCosts()].add(costs)
            }
            all.rows += part.rows
            all.first = [all.first, part.first].compactMap { $0 }.min()
            all.last = [all.last, part.last].compactMap { $0 }.max()
        }
        return all
    }
}
