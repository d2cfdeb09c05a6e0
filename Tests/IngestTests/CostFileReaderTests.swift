import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

@Suite("Cost ingestion")
struct CostFileReaderTests {
    struct ReadRow: Equatable {
        var at: Int64
        var account: String
        var category: String
        var cost: String
        var currency: String
        var line: Int
    }

    func read(_ text: String, mapping: CostColumnMap = [:]) throws
        -> (rows: [ReadRow], summary: CostFileSummary, rejects: [Reject])
    {
        let directory = try TestFiles.temporaryDirectory()
        let path = directory + "/costs.csv"
        try TestFiles.write(text, to: path)
        let log = RejectLog(keepingFirst: 100)
        let reader = CostFileReader(mapping: mapping, rejects: log)
        var rows: [ReadRow] = []
        let summary = try reader.read(path: path) { row in
            rows.append(
                ReadRow(
                    at: row.timestamp.milliseconds, account: String(decoding: row.accountID, as: UTF8.self),
                    category: String(decoding: row.category, as: UTF8.self), cost: row.cost.formatted(decimals: 9),
                    currency: row.currency.description, line: row.line))
        }
        return (
            rows, summary,
            log.firstRejects.map {
                var r = $0; r.file = "costs.csv"; return r
            }
        )
    }

    /// A row shorter than the header is refused before its request id is looked at: the id's
    /// column is past the row's end (found by FuzzCostRows; its input is in the seed corpus).
    @Test func aShortRowIsRefusedBeforeItsRequestIdIsRead() throws {
        let (rows, summary, rejects) = try read(
            "timestamp,account_id,category,cost,currency,quantity,unit,request_id\n"
                + "x\n"
                + "2026-10-05T12:00:00Z,acct-1,api,1.5\n"
                + "2026-10-05T12:00:00Z,acct-1,api,1.5,USD,,,r1\n")
        #expect(rows.map(\.line) == [4])
        #expect(summary.rows == 3 && summary.accepted == 1 && summary.rejected == 2)
        #expect(rejects.map(\.line) == [2, 3])
        #expect(rejects.allSatisfy { $0.reason.hasPrefix("row has ") })
    }

    @Test func readsTheContractColumnsInAnyOrder() throws {
        let result = try read(
            """
            cost,category,account_id,timestamp
            1.25,compute,a1,2026-10-01T00:00:00Z
            0.000000001,api,a2,1790812800000

            """)
        #expect(
            result.rows == [
                ReadRow(at: 1_790_812_800_000, account: "a1", category: "compute", cost: "1.250000000", currency: "USD", line: 2),
                ReadRow(at: 1_790_812_800_000, account: "a2", category: "api", cost: "0.000000001", currency: "USD", line: 3),
            ])
        #expect(result.summary.accepted == 2)
        #expect(result.summary.acceptedCost.byCurrency == [.usd: Money(nanos: 1_250_000_001)])
    }

    @Test func mappedColumnsFromAFixture() throws {
        let log = RejectLog()
        let reader = CostFileReader(
            mapping: [.timestamp: "ts", .accountID: "user", .category: "kind", .cost: "amount_usd", .requestID: "req"],
            rejects: log)
        var accounts: [String] = []
        let summary = try reader.read(path: TestFiles.fixture("costs-mapped/costs.csv")) { row in
            accounts.append(String(decoding: row.accountID, as: UTF8.self))
        }
        #expect(accounts == ["u1", "u2"])
        #expect(summary.acceptedCost.byCurrency == [.usd: try Money.parse("1.75")])
        #expect(log.count == 0)
    }

    @Test func aFileWithoutARequiredColumnIsRefusedWholeWeighingAllItsRows() throws {
        let (rows, summary, rejects) = try read(
            "timestamp,account_id,category,amount\n2026-10-01T00:00:00Z,a1,c,1\n2026-10-01T00:00:00Z,a2,c,2\n")
        #expect(rows.isEmpty && summary.accepted == 0)
        #expect(rejects.count == 1)
        #expect(rejects[0].line == 1 && rejects[0].wholeFile && rejects[0].rows == 2)
        #expect(rejects[0].reason.hasPrefix("no 'cost' column for cost (header has: timestamp, account_id, category, amount)"))
        let empty = try read("")
        #expect(empty.rejects.count == 1 && empty.rejects[0].reason.hasPrefix("the file is empty"))
    }

    @Test func duplicateRequestIdsAreDroppedAndCountedAcrossFiles() throws {
        let directory = try TestFiles.temporaryDirectory()
        try TestFiles.write(
            "timestamp,account_id,category,cost,request_id\n2026-10-01T00:00:00Z,a,c,1,r1\n2026-10-01T00:00:00Z,a,c,2,r2\n2026-10-01T00:00:00Z,a,c,4,r1\n",
            to: directory + "/one.csv")
        try TestFiles.write(
            "timestamp,account_id,category,cost,request_id\n2026-10-01T00:00:00Z,a,c,8,r2\n2026-10-01T00:00:00Z,a,c,16,\n2026-10-01T00:00:00Z,a,c,32,\n",
            to: directory + "/two.csv")
        let reader = CostFileReader(rejects: RejectLog())
        let first = try reader.read(path: directory + "/one.csv") { _ in }
        let second = try reader.read(path: directory + "/two.csv") { _ in }
        #expect(first.duplicates == 1)
        #expect(first.acceptedCost.byCurrency[.usd] == Money(nanos: 3_000_000_000))
        #expect(first.duplicateCost.byCurrency[.usd] == Money(nanos: 4_000_000_000))
        // An empty request_id is not an id: both rows stay.
        #expect(second.duplicates == 1)
        #expect(second.accepted == 2)
        #expect(second.acceptedCost.byCurrency[.usd] == Money(nanos: 48_000_000_000))
    }

    @Test func everyRejectReasonNamesLineFieldAndValue() throws {
        let result = try read(
            """
            timestamp,account_id,category,cost,currency
            2026-10-01T00:00:00Z,a1,c,1,USD
            yesterday,a2,c,2,USD
            2026-10-01T00:00:00Z,,c,3,USD
            2026-10-01T00:00:00Z,a4,c,1e3,USD
            2026-10-01T00:00:00Z,a5,c,5,US
            2026-10-01T00:00:00Z,a6,c
            2026-10-01T00:00:00Z,a7,c,7,USD,extra
            2026-02-30T00:00:00Z,a8,c,8,EUR

            """)
        #expect(result.rows.map(\.account) == ["a1"])
        #expect(result.rejects.map(\.line) == [3, 4, 5, 6, 7, 8, 9])
        #expect(result.rejects.map(\.field) == ["timestamp", "account_id", "cost", "currency", "cost", "", "timestamp"])
        #expect(result.rejects.map(\.value) == ["yesterday", "", "1e3", "US", "", "", "2026-02-30T00:00:00Z"])
        #expect(result.rejects[2].reason == MoneyError.notADecimal.description)
        #expect(result.rejects[4].reason.hasPrefix("row has 3 fields but the header has 5"))
        #expect(result.rejects[5].reason.hasPrefix("row has 6 fields but the header has 5"))
        #expect(result.summary.rows == 8)
        #expect(result.summary.rejected == 7)
        // Rejected rows whose cost could still be read are counted with it: 2 + 3 USD, 8 EUR.
        #expect(
            result.summary.rejectedCost.byCurrency == [
                .usd: Money(nanos: 5_000_000_000), CurrencyCode(validating: "EUR")!: Money(nanos: 8_000_000_000),
            ])
    }

    @Test func currencyDefaultsToUSDAndIsReadCaseInsensitively() throws {
        let result = try read(
            "timestamp,account_id,category,cost,currency\n2026-10-01T00:00:00Z,a,c,1,\n2026-10-01T00:00:00Z,b,c,2,eur\n")
        #expect(result.rows.map(\.currency) == ["USD", "EUR"])
    }
}
