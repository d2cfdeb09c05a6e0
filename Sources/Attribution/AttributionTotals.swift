import Ingest
import Ledger
import Support

/// Everything attribution sums, for any set of cost rows.
///
/// Two totals over disjoint sets of rows merge into exactly the totals over their union, so files and
/// parts of files can be attributed apart (in parallel, or on other machines) and combined.
package struct AttributionTotals: Sendable, Codable {
    // Inside the window.
    /// Per product index (see `ProductIndex`), cost by class.
    package var classByProduct: [ClassCosts]
    var beyondGraceByProduct: [Money]
    /// Per product, accounts with leaked cost beyond grace.
    var leakingAccountsByProduct: [Set<Int32>]
    /// Per original currency, cost by class before conversion: the conservation check.
    var classByCurrency = CurrencyClassCosts()
    var inputByCurrency = CostTotals()
    package var categories = ByteKeyTable()
    /// Key: day number, category id, class (see `dayKey`).
    package var byDay: [DayKey: DayCell] = [:]
    package var leaks: [TransactionAccountKey: LeakCell] = [:]
    /// Billing grace cost in the window, by account and the transaction in grace (rule 13).
    package var billingGrace: [TransactionAccountKey: Money] = [:]
    /// Per transaction index: cost tied to it while it granted access (paid, family_shared,
    /// billing_grace), and after its access ended (the after_* classes): family_spend.csv.
    var entitledInWindow: [Money]
    var afterEndInWindow: [Money]
    package var rowsInWindow = 0

    // Outside the window, counted so that every accepted row is accounted for.
    package var rowsBeforeWindow = 0
    package var rowsAfterWindow = 0
    var costBeforeWindow = CostTotals()
    var costAfterWindow = CostTotals()
    /// Cost by class per month of the rows before the window (inside it, `byDay` has them).
    var beforeWindowByMonth: [CivilMonth: ClassCosts] = [:]

    // The whole history up to the as-of time (refund sunk cost, subscription loss).
    /// Per transaction index: cost tied to it while it granted access.
    var grantedByTransaction: [Money]
    /// Per transaction index: after_refund cost tied to it.
    var afterRefundByTransaction: [Money]
    var subscriptionLeaks: [TransactionAccountKey: SubscriptionLeakCell] = [:]
    /// Per transaction index: all cost tied to it, and the first such row's time.
    var tiedByTransaction: [Money]
    package var firstTiedAt: [Int64]
    /// Credit-metered rows waiting to be settled in time order (see `Attributor.settle`), in
    /// blocks: each reading thread's rows, and their merge, take their bytes and no more.
    package var creditRows = BlockList<CreditRow>()
    /// Set in the totals of a partial cut by account (`moved`): the per-transaction sums of the
    /// six arrays above for only the transactions its rows touched, the arrays then empty.
    package var touchedTransactions: TransactionSums?

    /// Totals over no product and no transaction: what a template attributor holds.
    package static let empty = AttributionTotals(products: 0, transactions: 0)

    package init(products: Int, transactions: Int) {
        classByProduct = Array(repeating: ClassCosts(), count: products)
        beyondGraceByProduct = Array(repeating: .zero, count: products)
        leakingAccountsByProduct = Array(repeating: [], count: products)
        grantedByTransaction = Array(repeating: .zero, count: transactions)
        entitledInWindow = Array(repeating: .zero, count: transactions)
        afterEndInWindow = Array(repeating: .zero, count: transactions)
        afterRefundByTransaction = Array(repeating: .zero, count: transactions)
        tiedByTransaction = Array(repeating: .zero, count: transactions)
        firstTiedAt = Array(repeating: .max, count: transactions)
    }

    /// Cost by class per month of every row before the window's end: trend.csv.
    func costByMonth() throws(MoneyError) -> [CivilMonth: ClassCosts] {
        var months = beforeWindowByMonth
        for (key, cell) in byDay {
            try months[CivilMonth(CivilDate(dayNumber: key.day)), default: ClassCosts()].add(cell.cost, to: key.costClass)
        }
        return months
    }

    /// Adds `other` (over a disjoint set of rows) into these totals.
    ///
    /// Every field merges by its kind (`Mergeable`), but the two that hold category ids, which
    /// are per totals, and the first tied times, which take the earlier. A test fills every
    /// field, splits the rows and compares the merge with one pass (`AttributionTotalsTests`).
    package mutating func merge(_ other: AttributionTotals) throws(MoneyError) {
        try classByProduct.merge(other.classByProduct)
        try beyondGraceByProduct.merge(other.beyondGraceByProduct)
        try leakingAccountsByProduct.merge(other.leakingAccountsByProduct)
        try classByCurrency.merge(other.classByCurrency)
        try inputByCurrency.merge(other.inputByCurrency)
        // Category ids are per totals: the other's are mapped through their names.
        let categoryMap = (0..<other.categories.count).map { categories.insert(other.categories.key(Int32($0))) }
        try byDay.merge(
            Dictionary(
                uniqueKeysWithValues: other.byDay.map { key, cell in
                    (DayKey(day: key.day, category: categoryMap[Int(key.category)], costClass: key.costClass), cell)
                }))
        if categoryMap.enumerated().allSatisfy({ $0.element == Int32($0.offset) }) {
            // The same category ids: the other's blocks are taken as they are, not copied.
            creditRows += other.creditRows
        } else {
            creditRows += BlockList(
                other.creditRows.lazy.map { row in
                    var mapped = row
                    mapped.category = categoryMap[Int(row.category)]
                    return mapped
                })
        }
        try leaks.merge(other.leaks)
        try billingGrace.merge(other.billingGrace)
        rowsInWindow.merge(other.rowsInWindow)
        rowsBeforeWindow.merge(other.rowsBeforeWindow)
        rowsAfterWindow.merge(other.rowsAfterWindow)
        try costBeforeWindow.merge(other.costBeforeWindow)
        try costAfterWindow.merge(other.costAfterWindow)
        try beforeWindowByMonth.merge(other.beforeWindowByMonth)
        try subscriptionLeaks.merge(other.subscriptionLeaks)
        try mergeTransactions(other)
    }

    /// The per-transaction sums of `other` added in: arrays to arrays, a list into arrays (the
    /// merge of partials cut by account), or lists together (one partial's groups).
    private mutating func mergeTransactions(_ other: AttributionTotals) throws(MoneyError) {
        switch (touchedTransactions, other.touchedTransactions) {
        case (nil, nil):
            try entitledInWindow.merge(other.entitledInWindow)
            try afterEndInWindow.merge(other.afterEndInWindow)
            try grantedByTransaction.merge(other.grantedByTransaction)
            try afterRefundByTransaction.merge(other.afterRefundByTransaction)
            try tiedByTransaction.merge(other.tiedByTransaction)
            firstTiedAt = zip(firstTiedAt, other.firstTiedAt).map { min($0, $1) }
        case (nil, let theirs?):
            try theirs.add(into: &self)
        case (let mine?, let theirs?):
            touchedTransactions = try mine.merged(with: theirs)
        case (let mine?, nil):
            let identity = (0..<other.tiedByTransaction.count).map { Int32($0) }
            touchedTransactions = try mine.merged(with: TransactionSums(other, movingTo: identity))
        }
    }
}
