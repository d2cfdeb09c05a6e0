import Attribution
import Ingest
import Ledger
import Support

/// The answers to a few refund requests from respond's state, with the report's own stages
/// (the App Store lines kept, the ledger, the cost rows attributed, the figure) over the
/// requested transactions' accounts only.
///
/// What an account's answer depends on is the account's own: the lines of its transactions
/// (found under their original transaction ids and `appAccountToken`s), the rows of
/// accounts.csv that say who holds them, its cost rows (rows are attributed to their own
/// account's access, credits drawn from its own packs) and the evidence. So the answer from
/// these alone is the answer a report over everything gives.
struct AccountAnswers {
    var figures: [String: ConsumptionFigure] = [:]
    /// Each answered transaction's type, for Apple's rules on the percentage.
    var types: [String: ProductType] = [:]
    /// What reading accounts.csv, products.csv, fx.csv and the evidence refused, and the
    /// conflicts of the accounts answered for.
    var rejects = RejectTally()

    /// The answers to `requests` from `state`, whose accounts.csv index is `accounts`
    /// (`AccountsIndex.upToDate`).
    static func compute(
        _ requests: [StateRequest], state: RespondState, accounts: AccountsIndex, folder: String, options: RunOptions,
        layout: InputLayout, diagnostics: DiagnosticCollector
    ) throws -> AccountAnswers {
        let log = RejectLog()
        for refused in layout.refused { try log.record(refused) }
        let products = try layout.products.map { try ProductCatalogReader.read(path: $0, rejects: log) } ?? [:]
        let rates = try options.appStore.rates(layout, rejects: log)
        let evidence = try ConsumptionEvidence.read(consent: layout.consent, deliveries: layout.deliveries, rejects: log)
        let store = try StateLookup(state: state, folder: folder, layout: layout)
        let directory = try AccountsIndex.Lookup(accounts, folder: folder, hash: state.hash)

        // The requested lines and everything under their keys: enough to know who holds each
        // requested transaction; then everything under the keys of those accounts.
        var offsets = Set(requests.map(\.item))
        for offset in Array(offsets) {
            offsets.formUnion(try store.offsets(under: StateKeys.keys(of: try store.item(offset).item, state.hash)))
        }
        let firstReader = AppStoreReader(options: options.appStore.appStoreOptions, rejects: RejectLog(), threads: 1)
        let first = try ledger(
            try firstReader.read(items: store.entries(offsets).map(\.item)), directory: directory, accounts: [],
            products: products,
            options: options)
        var holders = Set<String>()
        for request in requests {
            guard let id = request.transactionID, let index = first.index(of: id), let account = first.transactions[index].account
            else { continue }
            holders.insert(first.accounts[account])
        }
        offsets.formUnion(try store.offsets(under: try holders.flatMap { try directory.keys(of: $0) }))
        let conflicts = RejectLog()
        let reader = AppStoreReader(options: options.appStore.appStoreOptions, rejects: RejectLog(), threads: 1)
        let input = try reader.read(items: store.entries(offsets).map(\.item))
        let ledger = try ledger(
            input, directory: directory, accounts: holders, products: products, options: options, rejects: conflicts)

        // The report's own stages over these accounts: the ledger, their rows attributed and
        // settled, the consumption figures.
        let pipeline = Pipeline(options)
        let loaded = LedgerLoad(
            layout: layout, appStore: AppStoreLoad(input: input, accountLinks: [], products: products), ledger: ledger,
            rates: rates, evidence: evidence)
        var attributor = options.configuration.attributor(ledger: ledger, rates: rates, template: false)
        for account in holders.sorted(by: { $0.bytesPrecede($1) }) {
            try feed(try store.usage(of: StateKeys.account(account, state.hash)), account: account, to: &attributor)
        }
        let wanted = Set(requests.map(\.uuid))
        var answers = AccountAnswers()
        for figure in pipeline.consumption(loaded, try pipeline.settle(rowsOf: attributor))
        where wanted.contains(figure.notificationUUID) {
            answers.figures[figure.notificationUUID] = figure
            if let index = figure.transactionIndex, let id = figure.transactionID, let type = ledger.transactions[index].type {
                answers.types[id] = type
            }
        }
        answers.rejects = log.tally.merged(with: accounts.rejects).merged(with: conflicts.tally)
        diagnostics.warn(input.counts.newValueWarnings)
        return answers
    }

    /// The ledger of the lines kept in `input`, with the rows of accounts.csv that speak of them
    /// or of `accounts`.
    private static func ledger(
        _ input: AppStoreInput, directory: AccountsIndex.Lookup, accounts: Set<String>, products: [String: Product],
        options: RunOptions, rejects: RejectLog = RejectLog()
    ) throws -> Ledger {
        var originals = Set<String>()
        var tokens = Set<String>()
        for transaction in input.transactions {
            originals.insert(transaction.record.originalTransactionID)
            if let token = transaction.record.appAccountToken { tokens.insert(token) }
        }
        return try Ledger(
            input: input,
            accountLinks: try directory.rows(accounts: accounts.union(tokens), originals: originals, tokens: tokens),
            products: products, options: options.appStore.ledgerOptions,
            rejects: rejects)
    }

    /// Gives the attributor the account's cost rows as the state keeps them: cost already in the
    /// report currency, quantity for the rows that draw credits.
    private static func feed(_ usage: [UsageRecord], account: String, to attributor: inout Attributor) throws {
        var account = account
        let currency = attributor.rates.reportCurrency
        try account.withUTF8 { id in
            let accountID = UnsafeRawBufferPointer(id)
            for record in usage {
                let credits = record.creditNanos != UsageRecord.noCredits
                try Self.unit(credits) { unit in
                    try attributor.add(
                        CostRow(
                            timestamp: Timestamp(milliseconds: record.milliseconds), accountID: accountID,
                            category: UnsafeRawBufferPointer(start: nil, count: 0), cost: Money(nanos: record.costNanos),
                            currency: currency, quantityNanos: credits ? record.creditNanos : nil, unit: unit, line: 0))
                }
            }
        }
    }

    private static func unit(_ credits: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var name = credits ? "credit" : ""
        try name.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
}

/// The state's files, read in place: items by offset, offsets by key, usage by account; the
/// lines and rows of files taken out left aside.
private struct StateLookup {
    let items: StateItems.Reader
    let index: OpenRuns<ItemRecord>
    let usage: OpenRuns<UsageRecord>
    /// By file number: taken out.
    let retired: [Bool]
    /// Each tracked file's place in the layout's order of App Store files.
    let fileOrder: [Int]

    init(state: RespondState, folder: String, layout: InputLayout) throws {
        items = try StateItems.Reader(path: state.items.path("items", in: folder), sums: state.items.sums)
        index = try state.index.open(in: folder)
        usage = try state.usage.open(in: folder)
        retired = state.files.map(\.retired)
        let order = Dictionary(
            (layout.notificationFiles + layout.transactionFiles).enumerated().map { ($1, $0) },
            uniquingKeysWith: { first, _ in first })
        fileOrder = state.files.map { order[$0.path] ?? Int.max }
    }

    func item(_ offset: Int) throws -> StateItems.Entry { try items.entry(at: offset) }

    func offsets(under keys: [UInt64]) throws -> Set<Int> {
        var found = Set<Int>()
        for key in Set(keys) {
            for record in try index.records(key) { found.insert(Int(record.offset)) }
        }
        return found
    }

    /// The lines at `offsets` of files not taken out, in the order a reading of every file
    /// meets them.
    func entries(_ offsets: Set<Int>) throws -> [StateItems.Entry] {
        let read = try offsets.sorted().map { (offset: $0, entry: try items.entry(at: $0)) }.filter { read in
            guard read.entry.file < retired.count else { return false }
            return !retired[read.entry.file]
        }
        return read.sorted { a, b in
            (fileOrder[a.entry.file], a.entry.line, a.offset) < (fileOrder[b.entry.file], b.entry.line, b.offset)
        }.map(\.entry)
    }

    /// The cost rows of the account whose hash is `account`, of files not taken out.
    func usage(of account: UInt128) throws -> [UsageRecord] {
        let key = UInt64(truncatingIfNeeded: account >> 64)
        let check = UInt64(truncatingIfNeeded: account)
        return try usage.records(key).filter { record in
            record.check == check && Int(record.file) < retired.count && !retired[Int(record.file)]
        }
    }
}
