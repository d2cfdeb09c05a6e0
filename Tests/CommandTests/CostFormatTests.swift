import Foundation
import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

/// LLM gateway exports read as they come (`--cost-format`), through the real CLI: the same
/// report as this tool's own format holding the same rows, and the figures by hand.
@Suite("Cost formats")
struct CostFormatTests {
    static func fixture(_ name: String) -> String { TestFiles.fixture("cost-formats/" + name) }

    /// The sample with one more cost file; the report of October.
    func report(adding file: String, as name: String, _ extra: [String] = []) throws -> (folder: String, run: ToolRun) {
        let data = try copyOfSample()
        try FileManager.default.copyItem(atPath: Self.fixture(file), toPath: data + "/costs/" + name)
        let out = URL(fileURLWithPath: data).deletingLastPathComponent().path + "/out"
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet"] + extra)
        return (out + "/2026-10", run)
    }

    /// The same with prices.csv beside the data, and more than one added file.
    func report(adding files: [(String, String)], prices: Bool, _ extra: [String]) throws -> (folder: String, run: ToolRun) {
        let data = try copyOfSample()
        for (file, name) in files {
            try FileManager.default.copyItem(atPath: Self.fixture(file), toPath: data + "/costs/" + name)
        }
        if prices { try FileManager.default.copyItem(atPath: Self.fixture("prices.csv"), toPath: data + "/prices.csv") }
        let out = URL(fileURLWithPath: data).deletingLastPathComponent().path + "/out"
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet"] + extra)
        return (out + "/2026-10", run)
    }

    func totals(_ folder: String) throws -> [String: String] {
        let records = try readRecords(folder + "/totals.csv")
        return Dictionary(uniqueKeysWithValues: zip(records[0].fields, records[1].fields))
    }

    /// The export and the same rows in this tool's format give the same report.
    ///
    /// By hand: the five requests cost 0.00042 + 0.000015 (written 1.5e-05) + nothing (a model
    /// Helicone could not price) + 0.25 (no user) + 0.125 (a user no transaction knows); the
    /// sixth repeats the first's response_id and is dropped. The last two are unlinked.
    @Test func heliconeExportGivesTheReportOfTheSameRowsInThisToolsFormat() throws {
        let helicone = try report(
            adding: "helicone-2026-10.csv", as: "helicone-2026-10.csv", ["--cost-format", "helicone-*.csv:helicone"])
        #expect(helicone.run.status == 0, "\(helicone.run.stderr)")
        let plain = try report(adding: "plain-twin.csv", as: "plain-twin.csv")
        #expect(plain.run.status == 0, "\(plain.run.stderr)")
        for file in ["summary.csv", "totals.csv", "cost_by_day.csv", "trend.csv", "leaks.csv", "refunds.csv"] {
            #expect(
                try TestFiles.read(helicone.folder + "/" + file) == (try TestFiles.read(plain.folder + "/" + file)), "\(file)")
        }
        let sample = try totals(TestFiles.packageRoot + "/reports/2026-10")
        let ours = try totals(helicone.folder)
        // 1684.121685 + 0.375435; unlinked 52.638959 + 0.375.
        #expect(sample["cost_total"] == "1684.121685" && ours["cost_total"] == "1684.497120")
        #expect(sample["cost_unlinked"] == "52.638959" && ours["cost_unlinked"] == "53.013959")
        let run = try TestFiles.read(helicone.folder + "/run.json")
        #expect(run.contains("\"duplicates_dropped\": 23"), "the repeated response_id is dropped like a request_id")
        #expect(run.contains("\"cost_formats\": [\n      \"helicone-*.csv:helicone\"\n    ]"))
    }

    @Test func langfuseObservationsGiveTheSameReport() throws {
        let langfuse = try report(
            adding: "langfuse-observations.csv", as: "langfuse-observations.csv",
            ["--cost-format", "langfuse-*.csv:langfuse"])
        #expect(langfuse.run.status == 0, "\(langfuse.run.stderr)")
        let plain = try report(adding: "plain-twin.csv", as: "plain-twin.csv")
        for file in ["summary.csv", "totals.csv", "cost_by_day.csv", "trend.csv"] {
            #expect(
                try TestFiles.read(langfuse.folder + "/" + file) == (try TestFiles.read(plain.folder + "/" + file)), "\(file)")
        }
    }

    /// Without --cost-format the export is a file of this tool's format missing its columns:
    /// refused whole, naming the fix.
    @Test func anExportReadAsPlainIsRefusedNamingTheColumns() throws {
        let plain = try report(adding: "helicone-2026-10.csv", as: "helicone-2026-10.csv")
        #expect(plain.run.status == 1)
        #expect(plain.run.stderr.contains("no 'timestamp' column for timestamp"))
        let wrong = try runTool([
            "report", "--data", TestFiles.packageRoot + "/Data/sample", "--month", "2026-10", "--out", "/tmp/never",
            "--cost-format", "helicone-*.csv:openai",
        ])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("NAME or GLOB:NAME with NAME one of plain, helicone, langfuse"))
    }

    @Test func heliconeQuantityIsPromptPlusCompletionTokens() throws {
        var map = CostColumnMap(rules: [])
        map.formats = [.init(glob: "helicone-*", format: .helicone)]
        var rows: [(String, Int64?, Int64)] = []
        let rejects = RejectLog()
        _ = try CostFileReader(mapping: map, rejects: rejects).read(path: Self.fixture("helicone-2026-10.csv")) { row in
            rows.append((String(decoding: row.accountID, as: UTF8.self), row.quantityNanos, row.cost.nanos))
        }
        #expect(rejects.count == 0)
        #expect(rows.map(\.1) == [1500, 100, 15, 1000, 5000].map { Int64($0) * 1_000_000_000 })
        #expect(rows.map(\.0) == ["acct-000001", "acct-000002", "acct-000001", "", "someone-unknown"])
        #expect(rows.map(\.2) == [420_000, 15_000, 0, 250_000_000, 125_000_000])
    }

    @Test func amountsInExponentFormAreExact() throws {
        func parse(_ text: String) throws -> Int64 {
            var text = text
            return try text.withUTF8 { try Money.parseAllowingExponent(UnsafeRawBufferPointer($0)).nanos }
        }
        #expect(try parse("1.5e-05") == 15_000)
        #expect(try parse("2E3") == 2_000_000_000_000)
        #expect(try parse("-3.25e-2") == -32_500_000)
        #expect(try parse("1.23456789012e2") == 123_456_789_012)
        // Below a nano: rounded half to even, like every other amount.
        #expect(try parse("5e-10") == 0)
        #expect(try parse("1.5e-9") == 2)
        #expect(try parse("0.00042") == 420_000)
        for bad in ["e5", "1e", "1e+", "1.2.3e4", "1e999", "abc"] {
            #expect(throws: MoneyError.self) { try parse(bad) }
        }
    }

    /// OpenMeter events priced from prices.csv give the report of the same rows with costs.
    ///
    /// By hand: 1,500 prompt tokens at 0.000002 (the
    /// price until October 6) = 0.003; 100 at 0.0000025 (from October 6) = 0.00025; 3 images at
    /// 0.04 EUR = 0.12 EUR, at October 7's 1.074627 = 0.128955; 1,000 tokens of no subject =
    /// 0.0025 (unlinked); the repeated event (same source and id) dropped; the same id from
    /// another source is another event: 400 tokens = 0.0008. The video event has no price: a
    /// reject naming the line to add.
    @Test func openMeterEventsArePricedFromThePriceTable() throws {
        let events = try report(
            adding: [("openmeter-2026-10.jsonl", "openmeter-2026-10.jsonl")], prices: true,
            ["--cost-format", "openmeter-*.jsonl:openmeter", "--usage-field", "tokens", "--max-rejects", "1"])
        #expect(events.run.status == 0, "\(events.run.stderr)")
        let twin = try report(adding: [("openmeter-twin.csv", "twin.csv")], prices: false, [])
        let priced = try report(adding: [("usage-without-cost.csv", "usage.csv")], prices: true, [])
        #expect(priced.run.status == 0, "\(priced.run.stderr)")
        for file in ["summary.csv", "totals.csv", "cost_by_day.csv", "trend.csv"] {
            let expected = try TestFiles.read(twin.folder + "/" + file)
            #expect(try TestFiles.read(events.folder + "/" + file) == expected, "openmeter \(file)")
            #expect(try TestFiles.read(priced.folder + "/" + file) == expected, "usage rows priced \(file)")
        }
        let ours = try totals(events.folder)
        #expect(ours["cost_total"] == "1684.257190")
        #expect(ours["cost_unlinked"] == "52.641459")
        let rejects = try readRecords(events.folder + "/rejects.csv")
        #expect(rejects.count == 2)
        #expect(rejects[1].fields[1] == "7" && rejects[1].fields[2] == "data.tokens" && rejects[1].fields[3] == "7")
        #expect(rejects[1].fields[4].contains("prices.csv has no price for video per tokens on 2026-10-09"))
        let run = try TestFiles.read(events.folder + "/run.json")
        #expect(run.contains("\"duplicates_dropped\": 23"))
        #expect(run.contains("\"path\": \"prices.csv\""), "prices.csv is an input with its checksum")
    }

    /// Two events whose source and id joined would read alike are two events: a source holding
    /// a control character is refused (its line named), so the join is never ambiguous.
    ///
    /// By hand: source "s1␟2" with id "2", and source "s1" with id "2␟2" (␟ is U+001F), each
    /// 1,000 tokens; the first is rejected for its source, the second counts once: 1,000 tokens
    /// at 0.000002 (the price until October 6) = 0.002, acct-000001 paid.
    @Test func anEventSourceWithAControlCharacterIsRefusedNotJoinedToAnotherEvent() throws {
        let data = try copyOfSample()
        try FileManager.default.copyItem(atPath: Self.fixture("prices.csv"), toPath: data + "/prices.csv")
        func event(source: String, id: String) -> String {
            "{\"specversion\":\"1.0\",\"type\":\"prompt\",\"id\":\"\(id)\",\"time\":\"2026-10-05T12:00:00Z\","
                + "\"source\":\"\(source)\",\"subject\":\"acct-000001\",\"data\":{\"tokens\":1000}}\n"
        }
        try TestFiles.write(
            event(source: "s1\\u001f2", id: "2") + event(source: "s1", id: "2\\u001f2"), to: data + "/costs/events.jsonl")
        let out = URL(fileURLWithPath: data).deletingLastPathComponent().path + "/out"
        let run = try runTool(
            ["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet", "--max-rejects", "1"]
                + ["--cost-format", "events.jsonl:openmeter", "--usage-field", "tokens"])
        #expect(run.status == 0, "\(run.stderr)")
        let rejects = try readRecords(out + "/2026-10/rejects.csv")
        #expect(rejects.count == 2)
        #expect(rejects[1].fields[0].hasSuffix("costs/events.jsonl") && rejects[1].fields[1] == "1")
        #expect(rejects[1].fields[2] == "source" && rejects[1].fields[4].contains("holds a control character (byte 0x1F)"))
        let json = try TestFiles.read(out + "/2026-10/run.json")
        #expect(json.contains("\"duplicates_dropped\": 22"), "the sample's 22, none from the events")
        let days = try TestFiles.read(out + "/2026-10/cost_by_day.csv")
        #expect(days.contains("2026-10-05,prompt,paid,USD,1,0.002000\n"))
    }

    @Test func jsonLinesWithoutAFormatAndUsageWithoutAPriceAreRefusedWithTheFix() throws {
        let unmapped = try report(adding: [("openmeter-2026-10.jsonl", "openmeter-2026-10.jsonl")], prices: true, [])
        #expect(unmapped.run.status == 1)
        #expect(unmapped.run.stderr.contains("JSON lines in costs/ are read as OpenMeter events only: --cost-format"))
        let unpriced = try report(adding: [("usage-without-cost.csv", "usage.csv")], prices: false, [])
        #expect(unpriced.run.status == 1)
        #expect(unpriced.run.stderr.contains("the cost is empty and prices.csv has no price for prompt per tokens on 2026-10-05"))
    }
}
