import Attribution
import Ingest
import Ledger
import Support

/// The figures of a fixture's October through the stages a report runs (the ledger, every cost
/// row attributed, credits settled), without writing anything: what the figure and file tests
/// check by hand.
func octoberFigures(
    _ fixture: AppStoreFixture, journal: [String: JournalEntry]? = nil, label: String = #function
) throws -> ReportFigures {
    let root = try fixture.write(label)
    guard let window = ReportWindow(month: "2026-10") else { throw MissingInReport("no October") }
    let (ledger, _, rejects) = try buildLedger(root, asOf: window.end.milliseconds)
    let layout = try InputLayout(root: root)
    let rates = try ExchangeRates.read(path: layout.exchangeRates, reportCurrency: .usd, rejects: rejects)
    let evidence = try ConsumptionEvidence.read(consent: layout.consent, deliveries: layout.deliveries, rejects: rejects)
    var attributor = Attributor(ledger: ledger, window: window, grace: .hours(1), rates: rates)
    _ = try CostFileReader(rejects: rejects).read(path: root + "/costs/costs.csv") { try attributor.add($0) }
    guard rejects.count == 0 else { throw MissingInReport("the fixture's rows were rejected: \(rejects.firstRejects)") }
    var totals = attributor.totals
    let draws = try attributor.settle(&totals)
    return try ReportFigures(
        ledger: ledger, totals: totals, window: window, rates: rates, credits: attributor.credits, draws: draws,
        evidence: evidence, journal: journal)
}

/// A CSV file's rows by column name (the header first), through the tool's own reader.
func csvRows(_ path: String) throws -> [[String: String]] {
    var header: [String] = []
    var rows: [[String: String]] = []
    try CSVReader.read(path: path) { record in
        if header.isEmpty {
            header = record.strings
        } else {
            rows.append(Dictionary(uniqueKeysWithValues: zip(header, record.strings)))
        }
    }
    return rows
}

extension AppStoreFixture {
    /// `familyRefund()` with a month of cost rows around it (FigureTests says each row's class).
    static var familyMonth: AppStoreFixture {
        let (t0, h, d, minute) = (october, hour, day, Int64(60_000))
        var fixture = familyRefund()
        fixture.cost("anon", at: t0 - 5 * d, "0.25")
        fixture.cost("acct-p", at: t0 + 5 * d, "2.00")
        fixture.cost("acct-m1", at: t0 + 5 * d, "3.00")
        fixture.cost("anon", at: t0 + 5 * d, "1.00")
        fixture.cost("acct-p", at: t0 + 10 * d + 30 * minute, "1.00")
        fixture.cost("acct-p", at: t0 + 10 * d + 3 * h, "4.00")
        fixture.cost("acct-m1", at: t0 + 12 * d, "0.50")
        return fixture
    }

    /// acct-s subscribes to pro.monthly (transaction 300) on September 20, expiring October 20,
    /// refunded October 5; served 2.00 on October 10 and 1.00 on October 28.
    static var refundedSubscription: AppStoreFixture {
        let (t0, d) = (october, day)
        var fixture = AppStoreFixture()
        fixture.products += "pro.monthly,Auto-Renewable Subscription,P1M,\n"
        let bought = t0 - 11 * d
        let refunded = t0 + 4 * d
        let subscription = transaction(
            "300", product: "pro.monthly", type: "Auto-Renewable Subscription", purchase: bought, expires: t0 + 19 * d,
            signed: bought)
        fixture.notify("SUBSCRIBED", uuid: "sub", signed: bought, transaction: subscription)
        var revoked = subscription
        revoked["revocationDate"] = refunded
        revoked["revocationReason"] = 0
        revoked["signedDate"] = refunded
        fixture.notify("REFUND", uuid: "refund", signed: refunded, transaction: revoked, received: refunded + 1000)
        fixture.link("acct-s", "300")
        fixture.cost("acct-s", at: t0 + 9 * d, "2.00")
        fixture.cost("acct-s", at: t0 + 27 * d, "1.00")
        return fixture
    }
}
