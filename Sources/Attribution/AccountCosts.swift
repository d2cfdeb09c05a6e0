import Ingest
import Ledger
import Support

/// One account's cost rows, classified like the report does, summed by class and by the
/// transaction each row is tied to: the cost part of `explain`.
package struct AccountCosts: Sendable {
    package var byClass = ClassCosts()
    /// Per tied transaction index (-1 for none), cost by class.
    package var byTransaction: [Int?: ClassCosts] = [:]
    package var rows = 0
    package var first: Timestamp?
    package var last: Timestamp?
    /// The FOCUS bill files of the data: the account's shares of them are not in these sums
    /// (they are known only once every usage row is counted, which `report` does).
    package var billFiles: [String] = []

    /// Reads every cost file and keeps the rows of `accountID` up to `asOf`.
    package static func collect(
        accountID: String, layout: InputLayout, ledger: Ledger, rates: ExchangeRates, grace: TimeSpan,
        mapping: CostColumnMap,
        rejects: RejectLog
    ) throws -> AccountCosts {
        let classifier = Classifier(ledger: ledger, grace: grace)
        let account = ledger.accountIndex[accountID].map { Int32($0) }
        let wanted = Array(accountID.utf8)
        var costs = AccountCosts()
        costs.billFiles = layout.costFiles.filter(FocusPoolFile.isPoolFile)
        let pooled = costs.billFiles.isEmpty ? [] : try AllocationRules(dataFolder: layout.root).categories
        let reader = CostFileReader(
            mapping: mapping, rejects: rejects, prices: try PriceTable(dataFolder: layout.root), pooled: pooled)
        for path in layout.costFiles where !costs.billFiles.contains(path) {
            _ = try reader.read(path: path) { row in
                guard row.accountID.elementsEqual(wanted), row.timestamp <= ledger.options.asOf else { return }
                let amount = try rates.reportAmount(row.cost, from: row.currency, onDay: row.timestamp.dayNumber)
                let decided = classifier.classify(account: account, at: row.timestamp)
                try costs.byClass.add(amount, to: decided.costClass)
                var perTransaction = costs.byTransaction[decided.transaction] ?? ClassCosts()
                try perTransaction.add(amount, to: decided.costClass)
                costs.byTransaction[decided.transaction] = perTransaction
                costs.rows += 1
                costs.first = min(costs.first ?? row.timestamp, row.timestamp)
                costs.last = max(costs.last ?? row.timestamp, row.timestamp)
            }
        }
        return costs
    }
}
