import Foundation
import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Support
@testable import Synthetic
@testable import TestSupport

/// Totals over two halves of the rows, merged, are the totals over all of them: every field,
/// whatever is added to `AttributionTotals` later.
@Suite("AttributionTotals: merged halves are the whole")
struct AttributionTotalsTests {
    /// The sample's September seen from its window: rows before it (August), in it, and after
    /// it (October), refunds, family members, leaks, subscriptions, billing grace and credits.
    func attribute(into parts: Int) throws -> (whole: AttributionTotals, parts: [AttributionTotals]) {
        let (attributor, files) = try sample()
        var whole = attributor
        var split = (0..<parts).map { _ in whole.emptyCopy() }
        try Self.read(files) { index, row in
            try whole.add(row)
            try split[index % parts].add(row)
        }
        return (whole.totals, split.map(\.totals))
    }

    /// An attributor of the sample's ledger for September, and the sample's cost files.
    func sample() throws -> (attributor: Attributor, costFiles: [String]) {
        let root = TestFiles.packageRoot + "/Data/sample"
        let window = try #require(ReportWindow(month: "2026-09"))
        let asOf = try #require(ReportWindow(month: "2026-10")).end
        let rejects = RejectLog()
        let layout = try InputLayout(root: root)
        let sampleRoot = try Certificate.load(path: root + "/" + DatasetGenerator.testRootName).map(\.der)
        let signatures = SignaturePolicy(roots: [AppleRoot.g3] + sampleRoot, fallbackTime: asOf)
        let load = try AppStoreLoad(
            layout: layout, options: AppStoreOptions(asOf: asOf, signatures: signatures), rejects: rejects)
        let ledger = try Ledger(
            input: load.input, accountLinks: load.accountLinks, products: load.products, options: LedgerOptions(asOf: asOf),
            rejects: rejects)
        let rates = try ExchangeRates.read(path: layout.exchangeRates, reportCurrency: .usd, rejects: rejects)
        return (Attributor(ledger: ledger, window: window, grace: .hours(1), rates: rates), layout.costFiles)
    }

    /// Hands each row of `files`, in file order, with its place, to `body` (a row lives only
    /// while `body` runs).
    static func read(_ files: [String], _ body: (Int, CostRow) throws -> Void) throws {
        let reader = CostFileReader(rejects: RejectLog())
        var index = 0
        for path in files {
            _ = try reader.read(path: path) { row in
                try body(index, row)
                index += 1
            }
        }
    }

    @Test func everyFieldOfTheHalvesMergesIntoTheWhole() throws {
        let (whole, parts) = try attribute(into: 3)
        // Merged in the order that makes category ids differ from the one pass.
        var merged = try #require(parts.last)
        for part in parts.dropLast().reversed() { try merged.merge(part) }
        let empty = AttributionTotals(products: whole.classByProduct.count, transactions: whole.firstTiedAt.count)
        let fields = Mirror(reflecting: whole).children.compactMap(\.label)
        #expect(fields.count >= 20, "\(fields)")
        // Only a partial cut by account lists the transactions it touched: the test below.
        for field in fields where field != "touchedTransactions" {
            // The sample fills every field: a field added later is checked as soon as it exists.
            #expect(try encoded(whole, field) != encoded(empty, field), "the sample leaves \(field) empty")
            #expect(try canonical(merged, field) == canonical(whole, field), "\(field) differs after the merge")
        }
    }

    /// Three threads reading at once add their sums per transaction into one shared set
    /// (`sharingTransactionSums`); their totals merged, with the shared sums stored in them, are
    /// the one pass's, every field.
    @Test func threadsSharingTheirSumsPerTransactionGiveTheWhole() throws {
        let (whole, _) = try attribute(into: 1)
        let (template, files) = try sample()
        let sharing = template.sharingTransactionSums()
        // Each thread reads every row and adds every third, at the same time as the others.
        let parts = try Parallel.map(3, threads: 3) { part in
            var attributor = sharing.emptyCopy()
            try Self.read(files) { index, row in if index % 3 == part { try attributor.add(row) } }
            return attributor.totals
        }
        #expect(parts.allSatisfy { $0.tiedByTransaction.isEmpty && $0.firstTiedAt.isEmpty }, "the sums are shared")
        var merged = try #require(parts.last)
        for part in parts.dropLast().reversed() { try merged.merge(part) }
        (try #require(sharing.sharedSums)).store(in: &merged)
        for field in Mirror(reflecting: whole).children.compactMap(\.label) where field != "touchedTransactions" {
            #expect(try canonical(merged, field) == canonical(whole, field), "\(field) differs")
        }
    }

    /// The totals of a partial cut by account list the transactions their rows touched instead
    /// of arrays over every transaction: merged into the merge's arrays, together first, or with
    /// totals that hold arrays, they are the one pass's, every field.
    @Test func listsOfTouchedTransactionsMergeAsTheArrays() throws {
        let (whole, parts) = try attribute(into: 3)
        let empty = AttributionTotals(products: whole.classByProduct.count, transactions: whole.firstTiedAt.count)
        func listed(_ totals: AttributionTotals) -> AttributionTotals {
            func identity(_ count: Int) -> [Int32] { (0..<count).map { Int32($0) } }
            return totals.moved(
                transactions: identity(totals.firstTiedAt.count), accounts: identity(1 << 20),
                products: identity(totals.classByProduct.count), productCount: totals.classByProduct.count)
        }
        let lists = parts.map(listed)
        #expect(lists.allSatisfy { $0.firstTiedAt.isEmpty && ($0.touchedTransactions?.count ?? 0) > 0 })
        // Each list into the arrays, as the merge adds partials.
        var intoArrays = empty
        for list in lists { try intoArrays.merge(list) }
        // The lists together, as a partial adds its groups, then into the arrays.
        var together = try #require(lists.first)
        for list in lists.dropFirst() { try together.merge(list) }
        var togetherIntoArrays = empty
        try togetherIntoArrays.merge(together)
        // A list with totals that hold arrays.
        var mixed = try #require(lists.first)
        for part in parts.dropFirst() { try mixed.merge(part) }
        #expect(mixed.touchedTransactions == together.touchedTransactions)
        for field in Mirror(reflecting: whole).children.compactMap(\.label) {
            #expect(try canonical(intoArrays, field) == canonical(whole, field), "\(field) differs, each list merged")
            #expect(try canonical(togetherIntoArrays, field) == canonical(whole, field), "\(field) differs, lists together")
        }
    }

    /// Worked by hand: transactions 1 and 5 of one list, 2 and 5 of another, merged in index
    /// order, the sums of 5 added and its earlier first time kept.
    @Test func twoListsMergeInIndexOrder() throws {
        func totals(_ values: [(tied: Int64, first: Int64)]) -> AttributionTotals {
            var totals = AttributionTotals(products: 0, transactions: values.count)
            for (index, value) in values.enumerated() {
                totals.tiedByTransaction[index] = Money(nanos: value.tied)
                totals.grantedByTransaction[index] = Money(nanos: 2 * value.tied)
                totals.firstTiedAt[index] = value.first
            }
            return totals
        }
        // Local transaction 1 of the first is untouched: it is left out of the list.
        let first = TransactionSums(totals([(10, 100), (0, .max), (30, 300)]), movingTo: [1, 3, 5])
        let second = TransactionSums(totals([(7, 70), (9, 90)]), movingTo: [2, 5])
        let merged = try first.merged(with: second)
        #expect(first.indices == [1, 5])
        #expect(merged.indices == [1, 2, 5])
        #expect(merged.tied == [Money(nanos: 10), Money(nanos: 7), Money(nanos: 39)])
        #expect(merged.granted == [Money(nanos: 20), Money(nanos: 14), Money(nanos: 78)])
        #expect(merged.firstTiedAt == [100, 70, 90])
        var arrays = AttributionTotals(products: 0, transactions: 6)
        try merged.add(into: &arrays)
        #expect(arrays.tiedByTransaction.map(\.nanos) == [0, 10, 7, 0, 0, 39])
        #expect(arrays.firstTiedAt == [.max, 100, 70, .max, .max, 90])
    }

    /// A field's bytes, with category ids (which are per totals) replaced by their names and
    /// credit rows (which wait to be sorted by time) in one order.
    func canonical(_ totals: AttributionTotals, _ field: String) throws -> [UInt8] {
        switch field {
        case "categories":
            return Array(
                (0..<totals.categories.count).map { totals.categories.key(Int32($0)) }.sorted().joined(separator: "\n").utf8)
        case "byDay":
            let named = totals.byDay.map { key, cell in
                "\(key.day) \(totals.categories.key(key.category)) \(key.costClass) \(cell.rows) \(cell.cost)"
            }
            return Array(named.sorted().joined(separator: "\n").utf8)
        case "creditRows":
            let named = totals.creditRows.map { row in
                "\(row.account) \(row.t) \(row.quantityNanos) \(row.cost) \(row.originalCost) \(row.currency) "
                    + totals.categories.key(row.category)
            }
            return Array(named.sorted().joined(separator: "\n").utf8)
        default:
            return try encoded(totals, field)
        }
    }

    func encoded(_ totals: AttributionTotals, _ field: String) throws -> [UInt8] {
        let value = try #require(Mirror(reflecting: totals).children.first { $0.label == field }?.value as? any Encodable)
        return try encode(value)
    }

    /// CompactCoder writes dictionaries and sets sorted: equal values, equal bytes.
    func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] { try CompactCoder.encode(value) }
}
