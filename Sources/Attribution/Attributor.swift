import Ingest
import Ledger
import Support

/// Attributes cost rows one at a time into `AttributionTotals`: converts to the report
/// currency, asks the ledger about the row's account and time, and adds the row to every
/// aggregate it belongs to.
///
/// Nothing is dropped: every accepted row lands in exactly one class (inside the window) or in the
/// before/after-window counts.
package struct Attributor: CostRowSink {
    package let classifier: Classifier
    package let window: ReportWindow
    /// The ledger's as-of time: rows after it are not looked back on.
    private let asOf: Timestamp
    package let rates: ExchangeRates
    package let products: ProductIndex
    /// Account ids of the ledger, in ledger order, so a table id is the ledger's account index.
    private let accounts: ByteKeyTable
    package private(set) var totals: AttributionTotals
    /// Set in the copies of a template `sharingTransactionSums()` made: their rows' sums per
    /// transaction go there, with every other thread's, and `totals` holds none.
    package private(set) var sharedSums: SharedTransactionSums?
    /// `sharedSums`' cells by address, what each row adds through.
    private var sharedAdder: SharedTransactionSums.Adder?
    private let periodMilliseconds: [Int64]
    package let credits: CreditLedger
    /// When set, rows of accounts of other groups are left to the attributors of theirs.
    ///
    /// A ledger cut by account holds the accounts of one group. A row whose group has a spill in
    /// `routes` (by group) is set aside there, so that the files are read once: a partial that
    /// routes every group's rows to the tasks of their groups attributes none itself.
    package var accountGroup: AccountGroup?
    package var routes: [UsageSpill?] = []

    static let week: Int64 = 7 * 86_400_000
    static let month30: Int64 = 30 * 86_400_000

    package init(ledger: Ledger, window: ReportWindow, grace: TimeSpan, rates: ExchangeRates) {
        self.init(ledger: ledger, window: window, grace: grace, rates: rates, sized: true)
    }

    /// An attributor that takes no rows itself: the threads reading the cost files take copies
    /// of it (`emptyCopy`), and only they hold totals, each as large as the ledger.
    package static func template(ledger: Ledger, window: ReportWindow, grace: TimeSpan, rates: ExchangeRates) -> Attributor {
        Attributor(ledger: ledger, window: window, grace: grace, rates: rates, sized: false)
    }

    private init(ledger: Ledger, window: ReportWindow, grace: TimeSpan, rates: ExchangeRates, sized: Bool) {
        classifier = Classifier(ledger: ledger, grace: grace)
        self.window = window
        asOf = ledger.options.asOf
        self.rates = rates
        products = ProductIndex(ledger: ledger)
        var table = ByteKeyTable(capacity: ledger.accounts.count)
        for account in ledger.accounts { table.insert(account) }
        accounts = table
        totals = sized ? AttributionTotals(products: products.keys.count, transactions: ledger.transactions.count) : .empty
        credits = CreditLedger(ledger: ledger)
        periodMilliseconds = ledger.withTransactions { transactions in
            transactions.indices.map { SubscriptionPeriod.of(transactions, $0, products: ledger.products).span.milliseconds }
        }
    }

    /// A fresh attributor for another share of the rows: same ledger and options, empty totals.
    package func emptyCopy() -> Attributor {
        var copy = self
        copy.totals = AttributionTotals(
            products: products.keys.count, transactions: sharedSums == nil ? classifier.ledger.transactions.count : 0)
        return copy
    }

    /// This template, whose copies (one a reading thread) add their sums per transaction into
    /// one set shared by all: `SharedTransactionSums.store` then puts them in the threads'
    /// merged totals.
    package func sharingTransactionSums() -> Attributor {
        var template = self
        let sums = SharedTransactionSums(transactions: classifier.ledger.transactions.count)
        template.sharedSums = sums
        template.sharedAdder = sums.adder
        return template
    }

    /// Rows are attributed the same whatever part they come from.
    package mutating func begin(part: Int) throws {}

    package mutating func add(_ row: CostRow) throws {
        let t = row.timestamp
        // Before a row is routed: a rate missing is said by the reading of its file, at its line.
        let cost = try rates.reportAmount(row.cost, from: row.currency, onDay: t.dayNumber)
        if let accountGroup {
            let group = AccountGroup.of(row.accountID, groups: accountGroup.groups)
            if group < routes.count, let spill = routes[group] {
                try spill.append(row)
                return
            }
            if group != accountGroup.group { return }
        }
        let inWindow = window.contains(t)
        if !inWindow {
            if t < window.start {
                totals.rowsBeforeWindow += 1
                try totals.costBeforeWindow.add(row.cost, in: row.currency)
            } else {
                totals.rowsAfterWindow += 1
                try totals.costAfterWindow.add(row.cost, in: row.currency)
            }
            // History matters only for what sunk cost, credits and subscription loss look back on.
            guard t <= asOf else { return }
        }
        let account = accounts.find(row.accountID)
        if row.usesCredits, let account, credits.hasPacks(account) {
            totals.creditRows.append(
                CreditRow(
                    account: account, t: t, quantityNanos: row.quantityNanos ?? 0, cost: cost, originalCost: row.cost,
                    currency: row.currency, category: totals.categories.insert(row.category)))
            return
        }
        let decided = classifier.classify(account: account, at: t)
        let category = inWindow ? totals.categories.insert(row.category) : nil
        try record(decided, account: account, at: t, cost: cost, original: row.cost, currency: row.currency, category: category)
    }

    /// Adds `cost` to a sum of `transaction`: the threads' shared sums, or these totals' own.
    private mutating func add(
        _ cost: Money, to column: SharedTransactionSums.Column, of transaction: Int
    ) throws(MoneyError) {
        if let sharedAdder { return try sharedAdder.add(cost, to: column, of: transaction) }
        switch column {
        case .entitledInWindow: totals.entitledInWindow[transaction] = try totals.entitledInWindow[transaction].adding(cost)
        case .afterEndInWindow: totals.afterEndInWindow[transaction] = try totals.afterEndInWindow[transaction].adding(cost)
        case .granted: totals.grantedByTransaction[transaction] = try totals.grantedByTransaction[transaction].adding(cost)
        case .afterRefund:
            totals.afterRefundByTransaction[transaction] = try totals.afterRefundByTransaction[transaction].adding(cost)
        case .tied: totals.tiedByTransaction[transaction] = try totals.tiedByTransaction[transaction].adding(cost)
        }
    }

    /// Makes `t` the first tied time of `transaction` when it is earlier: in the threads' shared
    /// sums, or these totals' own.
    private mutating func tie(_ transaction: Int, at t: Timestamp) {
        if let sharedAdder { return sharedAdder.tie(transaction, at: t.milliseconds) }
        totals.firstTiedAt[transaction] = min(totals.firstTiedAt[transaction], t.milliseconds)
    }

    /// Settles the credit-metered rows (docs/domain.md rule 7) into `totals`, once all rows are in
    /// (after merging partial totals): per account in time order, each row draws its quantity
    /// from the oldest pack with credits left.
    ///
    /// A row whose first credit comes from a valid pack is `paid`, tied to it; from a pack refunded
    /// before the row, `after_refund`; a row no credits cover is classified by access like any other.
    package mutating func settle(_ external: inout AttributionTotals) throws -> CreditDraws {
        swap(&totals, &external)
        defer { swap(&totals, &external) }
        return try settleOwnTotals()
    }

    private mutating func settleOwnTotals() throws -> CreditDraws {
        var draws = CreditDraws()
        let rows = totals.creditRows
        totals.creditRows = []
        let categories = totals.categories
        // Sorted by account and time held side by side with each row's place (16 bytes a row,
        // read from the blocks in one pass); the rest of the row is read only on a tie.
        struct Key {
            var account: Int32
            var place: Int32
            var t: Int64
        }
        var keys: [Key] = []
        keys.reserveCapacity(rows.count)
        for (place, row) in rows.enumerated() {
            keys.append(Key(account: row.account, place: Int32(place), t: row.t.milliseconds))
        }
        keys.sort { a, b in
            if a.account != b.account { return a.account < b.account }
            if a.t != b.t { return a.t < b.t }
            let x = rows[Int(a.place)], y = rows[Int(b.place)]
            if x.cost != y.cost { return x.cost < y.cost }
            if x.quantityNanos != y.quantityNanos { return x.quantityNanos < y.quantityNanos }
            let left = categories.key(x.category), right = categories.key(y.category)
            if !left.utf8.elementsEqual(right.utf8) { return left.bytesPrecede(right) }
            return a.place < b.place
        }
        let ordered = keys.lazy.map { Int($0.place) }
        var currentAccount: Int32?
        var packs: [CreditPack] = []
        var remaining: [Int128] = []
        for index in ordered {
            let row = rows[index]
            if row.account != currentAccount {
                currentAccount = row.account
                packs = credits.packs(row.account)
                remaining = packs.map(\.credits)
            }
            let funding = packs.indices.first { remaining[$0] > 0 && packs[$0].purchase <= row.t }
            var decided: Classification
            if let funding {
                let pack = packs[funding]
                if let revoked = pack.revokedAt, revoked <= row.t {
                    decided = Classification(
                        costClass: .afterRefund, transaction: pack.transaction,
                        phase: classifier.phase(of: pack.transaction, at: row.t))
                } else {
                    decided = Classification(costClass: .paid, transaction: pack.transaction, phase: nil)
                }
                var wanted = row.quantityNanos
                for position in funding..<packs.count where wanted > 0 && packs[position].purchase <= row.t {
                    // Never more than the row wants, so the draw fits the row's Int64 quantity.
                    let taken = Int64(min(Int128(wanted), remaining[position]))
                    guard taken > 0 else { continue }
                    remaining[position] -= Int128(taken)
                    wanted -= taken
                    draws.draws[packs[position].transaction, default: []].append((row.t, taken))
                }
            } else {
                decided = classifier.classify(account: row.account, at: row.t)
            }
            let category = window.contains(row.t) ? row.category : nil
            try record(
                decided, account: row.account, at: row.t, cost: row.cost, original: row.originalCost, currency: row.currency,
                category: category)
        }
        return draws
    }

    /// Adds one classified row to every aggregate it belongs to.
    ///
    /// A mutating method on the attributor's own totals: passing them `inout` to a method of
    /// `self` would copy them. `category` is the row's index in `totals.categories`, given for
    /// the rows in the window.
    private mutating func record(
        _ decided: Classification, account: Int32?, at t: Timestamp, cost: Money, original: Money, currency: CurrencyCode,
        category: Int32?
    ) throws {
        let costClass = decided.costClass
        let product = products.of(transaction: decided.transaction)
        let inWindow = window.contains(t)
        if inWindow {
            totals.rowsInWindow += 1
            try totals.inputByCurrency.add(original, in: currency)
            try totals.classByProduct[product].add(cost, to: costClass)
            try totals.classByCurrency.add(original, in: currency, to: costClass)
            // One lookup, the cell changed in place: this runs for every row in the window.
            if let category {
                try totals.byDay[DayKey(day: t.dayNumber, category: category, costClass: costClass), default: DayCell()].add(cost)
            }
            if let transaction = decided.transaction {
                if costClass.isEntitled {
                    try add(cost, to: .entitledInWindow, of: transaction)
                } else if costClass.isAfterEnd {
                    try add(cost, to: .afterEndInWindow, of: transaction)
                }
            }
            if costClass == .billingGrace, let account, let transaction = decided.transaction {
                let key = TransactionAccountKey(account: account, transaction: Int32(transaction))
                totals.billingGrace[key] = try (totals.billingGrace[key] ?? .zero).adding(cost)
            }
            if let phase = decided.phase, let account, let transaction = decided.transaction {
                let leakKey = TransactionAccountKey(account: account, transaction: Int32(transaction))
                var leak = totals.leaks[leakKey] ?? LeakCell()
                try leak.add(cost, phase: phase, at: t)
                totals.leaks[leakKey] = leak
                if costClass.isLeak && phase == .beyondGrace {
                    totals.beyondGraceByProduct[product] = try totals.beyondGraceByProduct[product].adding(cost)
                    totals.leakingAccountsByProduct[product].insert(account)
                }
            }
        }
        if t < window.start {
            try totals.beforeWindowByMonth[CivilMonth(t), default: ClassCosts()].add(cost, to: costClass)
        }

        guard t <= asOf, let transaction = decided.transaction else { return }
        try add(cost, to: .tied, of: transaction)
        tie(transaction, at: t)
        if costClass.isEntitled {
            try add(cost, to: .granted, of: transaction)
        } else if costClass == .afterRefund {
            try add(cost, to: .afterRefund, of: transaction)
        }
        if costClass.isLeak, let account, classifier.ledger.transactions[transaction].type == .autoRenewable,
            let end = classifier.ledger.transactions[transaction].end
        {
            try addSubscriptionLeak(
                cost, at: t, account: account, transaction: Int32(transaction), accessEnd: end.at, inWindow: inWindow)
        }
    }

    private mutating func addSubscriptionLeak(
        _ cost: Money, at t: Timestamp, account: Int32, transaction: Int32, accessEnd: Timestamp, inWindow: Bool
    ) throws {
        let key = TransactionAccountKey(account: account, transaction: transaction)
        var cell = totals.subscriptionLeaks[key] ?? SubscriptionLeakCell()
        let period = max(1, periodMilliseconds[Int(transaction)])
        let index = (t.milliseconds - accessEnd.milliseconds) / period
        cell.byPeriod[index] = try (cell.byPeriod[index] ?? .zero).adding(cost)
        cell.total = try cell.total.adding(cost)
        if inWindow { cell.inWindow = try cell.inWindow.adding(cost) }
        let end = window.end.milliseconds
        if t.milliseconds < end && t.milliseconds >= end - Attributor.week { cell.last7Days = try cell.last7Days.adding(cost) }
        if t.milliseconds < end && t.milliseconds >= end - Attributor.month30 {
            cell.last30Days = try cell.last30Days.adding(cost)
        }
        // The month before the window, as the headline compares with it: the window starts where it ends.
        if window.isCalendarMonth {
            let start = window.start.milliseconds
            if t.milliseconds < start {
                if t >= CivilDate.firstOfMonth(window.start.civilDate, offset: -1).start {
                    cell.inPreviousMonth = try cell.inPreviousMonth.adding(cost)
                }
                if t.milliseconds >= start - Attributor.week {
                    cell.last7DaysOfPreviousMonth = try cell.last7DaysOfPreviousMonth.adding(cost)
                }
                if t.milliseconds >= start - Attributor.month30 {
                    cell.last30DaysOfPreviousMonth = try cell.last30DaysOfPreviousMonth.adding(cost)
                }
            }
        }
        totals.subscriptionLeaks[key] = cell
    }
}

/// A subscription's billing period: the product's, else inferred from the transaction's dates.
enum SubscriptionPeriod {
    package static func of(_ transaction: LedgerTransaction, products: [String: Product]) -> BillingPeriod {
        of(transaction.box, products: products)
    }

    /// The same for the transaction at `index`, read in place (`Ledger.withTransactions`).
    package static func of(_ transactions: UnsafeBufferPointer<LedgerTransaction>, _ index: Int, products: [String: Product])
        -> BillingPeriod
    {
        of(transactions[index].box, products: products)
    }

    private static func of(_ box: RecordBox, products: [String: Product]) -> BillingPeriod {
        if let period = products[box.record.productID]?.period { return period }
        if let expires = box.record.expiresDate {
            return BillingPeriod.nearest(to: TimeSpan(milliseconds: expires.milliseconds - box.record.purchaseDate.milliseconds))
        }
        return BillingPeriod.standard[1]
    }
}
