import Foundation
import Testing

@testable import Attribution
@testable import Ingest
@testable import Report
@testable import Support
@testable import TestSupport

/// A FOCUS bill spread over usage rows by `allocation.csv`, through the real CLI: the same
/// classes as per-account rows that carry the same shares, every pool row accounted for, and
/// the shares worked out by hand.
@Suite("Cost pools")
struct CostPoolTests {
    static func fixture(_ name: String) -> String { TestFiles.fixture("cost-pools/" + name) }

    /// The sample plus the bill and its usage (or any other files), with `allocation` as the
    /// allocation file; the report of October.
    func report(
        costs: [String] = ["focus-2026-10.csv", "usage-2026-10.csv"], allocation: String? = nil, _ extra: [String] = [],
        label: String = #function
    ) throws -> (folder: String, run: ToolRun, data: String) {
        let data = try copyOfSample(label)
        for file in costs { try FileManager.default.copyItem(atPath: Self.fixture(file), toPath: data + "/costs/" + file) }
        let rules = try allocation ?? TestFiles.read(Self.fixture("allocation.csv"))
        try rules.write(toFile: data + "/allocation.csv", atomically: true, encoding: .utf8)
        let out = URL(fileURLWithPath: data).deletingLastPathComponent().path + "/out"
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet"] + extra)
        return (out + "/2026-10", run, data)
    }

    func totals(_ folder: String) throws -> [String: String] {
        let records = try readRecords(folder + "/totals.csv")
        return Dictionary(uniqueKeysWithValues: zip(records[0].fields, records[1].fields))
    }

    /// The classes of per-account rows that carry the shares.
    ///
    /// By hand (per-account-twin.csv holds the same shares as plain rows): the GPU day's 10.00
    /// over quantities 1, 2, 4 is 10,000,000 micro-units x 1/7, 2/7, 4/7 = 1,428,571 r3,
    /// 2,857,142 r6, 5,714,285 r5; two left-over micro-units go to the remainders 6 and 5:
    /// 1.428571, 2.857143, 5.714286. The chat day's 10.00 over three rows leaves one micro-unit
    /// to the first row in file order: 3.333334, 3.333333, 3.333333. The pool of 30 September
    /// 12:00 to 1 October 12:00 gives 2.00 to a row before the window and 2.00 to one inside;
    /// the EUR pool 2.50 EUR to each of two rows (2.7053525 USD each at 1.082141, 2.705352
    /// rounded half to even).
    @Test func aBillPlusUsageGivesTheClassesOfPerAccountRowsWithTheSameShares() throws {
        let pooled = try report()
        #expect(pooled.run.status == 0, "\(pooled.run.stderr)")
        let twin = try report(costs: ["per-account-twin.csv"], allocation: "category\n")
        #expect(twin.run.status == 0, "\(twin.run.stderr)")
        for file in [
            "summary.csv", "totals.csv", "trend.csv", "cost_by_day.csv", "refunds.csv", "leaks.csv", "subscription_loss.csv",
            "family_spend.csv", "family_links.csv",
        ] {
            #expect(try TestFiles.read(pooled.folder + "/" + file) == (try TestFiles.read(twin.folder + "/" + file)), "\(file)")
        }
        // 1684.121685 (the sample) + 10 + 10 + 2 + 2 x 2.705352.
        #expect(try totals(pooled.folder)["cost_total"] == "1711.532389")
        #expect(try TestFiles.read(twin.folder + "/allocation.csv") == "\(header)\n")
    }

    let header = "day,service_name,charge_category,category,outcome,reason,currency,pool_rows,cost,usage_rows"

    /// Every pool row is in allocation.csv, spread or left with its reason, and the bill
    /// reconciles: 29.30 USD + 5 EUR read = 24.00 USD + 5 EUR allocated + 5.30 USD unallocated
    /// (3.50 storage with no usage, -1.00 credit and 0.80 tax not named, 2.00 support no line takes).
    @Test func everyPoolRowIsAllocatedOrReportedWithItsReason() throws {
        let pooled = try report()
        #expect(pooled.run.status == 0, "\(pooled.run.stderr)")
        let lines = try TestFiles.read(pooled.folder + "/allocation.csv").split(separator: "\n").map(String.init)
        #expect(
            lines == [
                header,
                "2026-09-30,Amazon Bedrock,Usage,chat,allocated,,USD,1,4.000000,2",
                "2026-10-01,AWS Support (Business),Usage,,unallocated,no line of allocation.csv matches,USD,1,2.000000,0",
                "2026-10-01,Amazon Bedrock,Tax,,unallocated,Tax rows are left out unless a line names Tax in charge_category,USD,1,0.800000,0",
                "2026-10-10,Amazon Elastic Compute Cloud,Usage,gpu,allocated,,USD,1,10.000000,3",
                "2026-10-12,Amazon Bedrock,Credit,,unallocated,Credit rows are left out unless a line names Credit in charge_category,USD,1,-1.000000,0",
                "2026-10-12,Amazon Bedrock,Usage,chat,allocated,,USD,1,10.000000,3",
                "2026-10-13,Amazon Bedrock,Usage,chat,allocated,,EUR,1,5.000000,2",
                "2026-10-15,Amazon S3,Usage,media-storage,unallocated,no usage with a quantity of category media-storage in the charge period,USD,1,3.500000,0",
            ])
        let run = try TestFiles.read(pooled.folder + "/run.json")
        #expect(run.contains("\"allocated\": {\n      \"EUR\": 5.000000000,\n      \"USD\": 24.000000000\n    }"))
        #expect(run.contains("\"unallocated\": {\n      \"USD\": 5.300000000\n    }"))
        let verbose = try runTool(["report", "--data", pooled.data, "--month", "2026-10", "--out", pooled.data + "/../again"])
        #expect(
            verbose.stdout.contains(
                "pool cost 5.000000 EUR + 29.300000 USD read = 5.000000 EUR + 24.000000 USD allocated + 5.300000 USD unallocated")
        )
        let page = try TestFiles.read(pooled.data + "/../again/2026-10/report.html")
        #expect(page.contains("5.300000 USD unallocated"))
        #expect(page.contains("5.00 EUR + 29.30 USD billed, 5.00 EUR + 24.00 USD spread over the usage"))
        #expect(
            page.contains(
                "<td data-label=\"day\">2026-10-15</td><td data-label=\"service\">Amazon S3</td><td data-label=\"charge\">Usage</td>"
                    + "<td data-label=\"why not spread\">no usage with a quantity of category media-storage"))
    }

    /// A line that names Credit spreads the credit like the usage: -1.00 over the chat day's three
    /// rows, -0.333334, -0.333333, -0.333333.
    @Test func aCreditIsSpreadWhenALineNamesIt() throws {
        let rules = try TestFiles.read(Self.fixture("allocation.csv"))
            .replacingOccurrences(of: "Amazon Bedrock,,,,chat", with: "Amazon Bedrock,,,Usage|Credit,chat")
        let pooled = try report(allocation: rules)
        #expect(pooled.run.status == 0, "\(pooled.run.stderr)")
        #expect(try totals(pooled.folder)["cost_total"] == "1710.532389")
        let allocation = try TestFiles.read(pooled.folder + "/allocation.csv")
        #expect(allocation.contains("2026-10-12,Amazon Bedrock,Credit,chat,allocated,,USD,1,-1.000000,3"))
    }

    @Test func twoLinesTakingOnePoolRowStopTheRunNamingBoth() throws {
        let rules = try TestFiles.read(Self.fixture("allocation.csv")) + ",arn:aws:bedrock:us-east-1,,,chat,quantity,\n"
        let pooled = try report(allocation: rules)
        #expect(pooled.run.status == 1)
        #expect(pooled.run.stderr.contains("allocation.csv:3: error: lines 3 and 5 both match"), "\(pooled.run.stderr)")
        #expect(pooled.run.stderr.contains("costs/focus-2026-10.csv:3"))
    }

    /// The shares are the same whatever the number of threads (the tie of the chat day is broken
    /// by file order, not by which thread saw a row first).
    @Test func threadsDoNotChangeAShare() throws {
        let one = try report(["--threads", "1"], label: "threads-one")
        let four = try report(["--threads", "4"], label: "threads-four")
        for file in ReportFiles.csvNames {
            #expect(try TestFiles.read(one.folder + "/" + file) == (try TestFiles.read(four.folder + "/" + file)), "\(file)")
        }
    }

    /// A pool row that cannot be read is a reject with its file, line, field and value.
    @Test func aBadPoolRowIsRejectedWithItsField() throws {
        let data = try copyOfSample()
        let bill = try TestFiles.read(Self.fixture("focus-2026-10.csv"))
            .replacingOccurrences(of: "Hours,12.00,10.00,Amazon", with: "Hours,12.00,ten,Amazon")
        try bill.write(toFile: data + "/costs/focus.csv", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Self.fixture("allocation.csv"), toPath: data + "/allocation.csv")
        let run = try runTool(["validate", "--data", data])
        #expect(run.stderr.contains("costs/focus.csv:2: error: EffectiveCost \"ten\""), "\(run.stderr)")
        #expect(run.status == 1)
    }

    /// `validate` checks without attributing: the bill's outcome is what report spreads, and a
    /// cost no rate converts still stops it, as it stops report.
    @Test func validateChecksTheBillAndEveryConversionWithoutAttributing() throws {
        let pooled = try report()
        let run = try runTool(["validate", "--data", pooled.data])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains(
                "FOCUS bill (costs/focus-2026-10.csv): 8 pool rows, 5.000000 EUR + 29.300000 USD read = "
                    + "5.000000 EUR + 24.000000 USD allocated + 5.300000 USD unallocated"), "\(run.stdout)")
        try "timestamp,account_id,category,cost,currency\n2026-10-20T00:00:00.000Z,acct-000001,payout,1.50,CHF\n"
            .write(toFile: pooled.data + "/costs/payout.csv", atomically: true, encoding: .utf8)
        let unconvertible = try runTool(["validate", "--data", pooled.data])
        #expect(unconvertible.status != 0)
        #expect(unconvertible.stderr.contains("no exchange rate for CHF"), "\(unconvertible.stderr)")
    }

    /// An hourly bill: a row belongs to the pool whose hour holds it, the end excluded.
    @Test func aRowDrawsFromThePoolsWhosePeriodHoldsIt() throws {
        func pool(_ start: String, _ end: String, service: String = "gpu") throws -> CostPool {
            let row = PoolRow(
                file: "bill.csv", line: 2, start: try #require(TimestampParser.parse(start)),
                end: try #require(TimestampParser.parse(end)), billedCost: nil, effectiveCost: Money(nanos: 1_000_000_000),
                currency: .usd, chargeCategory: "Usage", serviceName: service, resourceID: "", tags: [:])
            let line = AllocationLine(
                line: 2, serviceName: "", resourceIDPrefix: "", tagKey: "", tagValue: nil, chargeCategories: ["Usage"],
                category: "gpu", basis: .quantity, cost: .effective)
            return CostPool(row: row, line: line, amount: Money(nanos: 1_000_000_000))
        }
        let index = PoolIndex(pools: [
            try pool("2026-10-10T10:00:00Z", "2026-10-10T11:00:00Z"), try pool("2026-10-10T11:00:00Z", "2026-10-10T12:00:00Z"),
            try pool("2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z", service: "support"),
        ])
        func pools(_ time: String, _ category: String = "gpu") throws -> [Int32] {
            var found: [Int32] = []
            var name = category
            let at = try #require(TimestampParser.parse(time))
            name.withUTF8 { bytes in index.forEachPool(category: UnsafeRawBufferPointer(bytes), at: at) { found.append($0) } }
            return found
        }
        #expect(try pools("2026-10-10T10:59:59.999Z") == [0, 2])
        #expect(try pools("2026-10-10T11:00:00Z") == [1, 2])
        #expect(try pools("2026-10-10T12:00:00Z") == [2])
        #expect(try pools("2026-11-01T00:00:00Z") == [])
        #expect(try pools("2026-10-10T10:30:00Z", "api") == [])
    }

    @Test func sharesFollowTheLargestRemainder() throws {
        let quantities = try #require(
            PoolShares(amount: Money(nanos: 10_000_000_000), step: 1000, rowsByValue: [1: 1, 2: 1, 4: 1]))
        #expect(quantities.byValue[1]?.steps == 1_428_571 && quantities.byValue[1]?.extra == PoolShares.Extra.none)
        #expect(quantities.byValue[2]?.steps == 2_857_142 && quantities.byValue[2]?.extra == .all)
        #expect(quantities.byValue[4]?.steps == 5_714_285 && quantities.byValue[4]?.extra == .all)
        let rows = try #require(PoolShares(amount: Money(nanos: 10_000_000_000), step: 1000, rowsByValue: [1: 3]))
        #expect(rows.byValue[1]?.steps == 3_333_333 && rows.boundaryValue == 1 && rows.boundaryExtras == 1)
        let credit = try #require(PoolShares(amount: Money(nanos: -1_000_000_000), step: 1000, rowsByValue: [1: 3]))
        #expect(credit.nanos(steps: 333_333, extra: true) == -333_334_000)
        // A bill with digits below the micro-unit is shared in nano-units, still exactly.
        #expect(PoolShares.step(for: Money(nanos: 1_000_000_001)) == 1)
        #expect(PoolShares(amount: Money(nanos: 5), step: 1, rowsByValue: [0: 4]) == nil)
        // The per-row rule works out what the table says, for every value of a spread of
        // quantities whose remainders tie and differ.
        let counts: [Int64: Int] = [1: 5, 2: 3, 3: 3, 7: 1, 10: 2, 0: 2]
        for amount: Int64 in [1_000_000_000, 7_000_000_000, 999_999_000, -3_000_000_000] {
            let plan = try #require(PoolShares(amount: Money(nanos: amount), step: 1000, rowsByValue: counts))
            for value in counts.keys {
                let worked = plan.rule.share(of: value)
                #expect(
                    worked.steps == plan.byValue[value]?.steps && worked.extra == plan.byValue[value]?.extra, "\(amount) \(value)"
                )
            }
        }
    }

    /// `generate --cost-form focus`: the report of the bill and its usage equals the report of
    /// the per-account rows the allocation makes (`allocated/`), on one thread and on four, and
    /// the helicone form read with --cost-format equals the rows form.
    @Test func generatedFormsGiveTheSameReport() throws {
        let root = try TestFiles.temporaryDirectory()
        for form in ["rows", "focus", "helicone"] {
            let made = try runTool([
                "generate", "--out", root + "/" + form, "--accounts", "700", "--seed", "11", "--months", "2",
                "--cost-form", form, "--quiet",
            ])
            try #require(made.status == 0, "\(made.stderr)")
        }
        let twin = root + "/twin"
        try FileManager.default.copyItem(atPath: root + "/focus", toPath: twin)
        try FileManager.default.removeItem(atPath: twin + "/costs")
        try FileManager.default.removeItem(atPath: twin + "/allocation.csv")
        try FileManager.default.copyItem(atPath: twin + "/allocated", toPath: twin + "/costs")
        func report(_ data: String, _ extra: [String]) throws -> String {
            let out = root + "/out-\(UUID().uuidString)"
            let run = try runTool(
                ["report", "--data", root + "/" + data, "--month", "2026-10", "--out", out, "--quiet"] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            return out + "/2026-10"
        }
        let files = ReportFiles.csvNames.filter { $0 != "allocation.csv" }
        let pooledOne = try report("focus", ["--threads", "1"])
        let pooledFour = try report("focus", ["--threads", "4"])
        let allocated = try report("twin", ["--threads", "4"])
        for file in files {
            let expected = try TestFiles.read(allocated + "/" + file)
            #expect(try TestFiles.read(pooledOne + "/" + file) == expected, "\(file), one thread")
            #expect(try TestFiles.read(pooledFour + "/" + file) == expected, "\(file), four threads")
        }
        #expect(try TestFiles.read(pooledOne + "/allocation.csv") == (try TestFiles.read(pooledFour + "/allocation.csv")))
        #expect(try TestFiles.read(pooledOne + "/run.json").contains("\"unallocated\": {},\n    \"holds\": true,"))
        let rows = try report("rows", [])
        let helicone = try report("helicone", ["--cost-format", "helicone-*.csv:helicone"])
        for file in files {
            #expect(try TestFiles.read(helicone + "/" + file) == (try TestFiles.read(rows + "/" + file)), "\(file), helicone")
        }
    }
}
