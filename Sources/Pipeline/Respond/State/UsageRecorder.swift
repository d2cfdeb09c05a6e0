import Attribution
import Ingest
import Support

/// Keeps what an answer needs of each accepted cost row (`UsageRecord`): respond's reading of
/// the cost files, which attributes nothing.
///
/// The cost is converted to the report currency as the attributor converts it, so a row the
/// attributor could not convert stops this reading as it would stop a report.
struct UsageRecorder: CostRowSink {
    let rates: ExchangeRates
    let hash: SipHash
    private(set) var records: [UsageRecord] = []

    init(rates: ExchangeRates, hash: SipHash) {
        self.rates = rates
        self.hash = hash
    }

    func emptyCopy() -> UsageRecorder { UsageRecorder(rates: rates, hash: hash) }

    mutating func begin(part: Int) throws {}

    mutating func add(_ row: CostRow) throws {
        let t = row.timestamp
        let cost = try rates.reportAmount(row.cost, from: row.currency, onDay: t.dayNumber)
        records.append(
            UsageRecord(
                account: StateKeys.account(row.accountID, hash), milliseconds: t.milliseconds, costNanos: cost.nanos,
                creditNanos: row.usesCredits ? row.quantityNanos ?? 0 : UsageRecord.noCredits))
    }
}
