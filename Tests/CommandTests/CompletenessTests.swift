import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// A close never looks clean on missing data: what was left out weighs what it held, every
/// command gives the same verdict on it, and the page and console say it first and last.
@Suite("Completeness of a close")
struct CompletenessTests {
    static let header = "timestamp,account_id,category,cost\n"

    /// The sample's cost rows and the rows among them that repeat an earlier row's request id,
    /// counted here from the files themselves.
    func sampleCostRows() throws -> (rows: Int, duplicates: Int) {
        var rows = 0
        var duplicates = 0
        var seen = Set<String>()
        let folder = TestFiles.packageRoot + "/Data/sample/costs"
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
            for row in try csvRows(folder + "/" + name) {
                rows += 1
                if let id = row["request_id"], !id.isEmpty, !seen.insert(id).inserted { duplicates += 1 }
            }
        }
        return (rows, duplicates)
    }

    /// The sample with one more cost file whose `cost` column is called `usd`: 250 rows.
    func sampleWithRenamedColumn(_ label: String = #function) throws -> String {
        let data = try copyOfSample(label)
        var text = "timestamp,account_id,category,usd\n"
        for row in 0..<250 { text += "2026-10-\(10 + row % 10)T10:00:00Z,acct-000001,compute,0.10\n" }
        try TestFiles.write(text, to: data + "/costs/vendor-b.csv")
        return data
    }

    /// The sample without its test root beside it, so its signatures reach no trusted root.
    func untrustedSample(_ label: String = #function) throws -> String {
        let data = try copyOfSample(label)
        try FileManager.default.removeItem(atPath: data + "/test-root.der")
        return data
    }

    @Test func aRefusedFileCountsAllItsRowsAgainstMaxRejects() throws {
        let data = try sampleWithRenamedColumn()
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--max-rejects", "10", "--quiet"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: 250 input rows rejected (1 reject), more than --max-rejects 10"))
        #expect(run.stderr.contains("refused whole: \(data)/costs/vendor-b.csv (250 rows not counted)"))
        // How to fix it is said once, for this file; a file refused whole is fixed, never waved through.
        #expect(run.stderr.contains("--cost-column cost=HEADER (or 'vendor-b.csv:cost=HEADER' for this file only)"))
        #expect(run.stderr.components(separatedBy: "no 'cost' column").count == 2, "the reason once: \(run.stderr)")
        #expect(!run.stderr.contains("--max-rejects 250"))
        let rejects = try TestFiles.read(out + "/2026-10.rejects.csv")
        #expect(rejects.contains("costs/vendor-b.csv,1,,,\"no 'cost' column for cost"))
        #expect(rejects.hasSuffix(",250\n"))

        // Allowed, the close says what it left out: on the console's last line, in run.json, on the page.
        let allowed = try runTool([
            "report", "--data", data, "--month", "2026-10", "--out", out, "--max-rejects", "250",
        ])
        #expect(allowed.status == 0)
        let lastLine = allowed.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine.hasPrefix("warning: refused whole: costs/vendor-b.csv (250 rows not counted)"))
        // Every row of the sample counted, the 250 of vendor-b.csv not; its duplicates dropped.
        let sample = try sampleCostRows()
        #expect(sample.duplicates > 0, "the sample repeats request ids")
        #expect(
            allowed.stdout.contains(
                "costs \(HumanText.count(sample.rows)) of \(HumanText.count(sample.rows + 250)) rows "
                    + "(250 rejected, \(sample.duplicates) duplicates)"), "\(allowed.stdout)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/2026-10/run.json")))
        let record = try #require(json as? [String: Any])
        #expect(record["rejected_rows"] as? Int == 250)
        let folders = try #require(record["input_folders"] as? [String: Any])
        #expect(folders["complete"] as? Bool == false)
        let costs = try #require((folders["folders"] as? [[String: Any]])?.first)
        #expect(
            costs["folder"] as? String == "costs" && costs["read"] as? Int == sample.rows + 250
                && costs["rejected"] as? Int == 250)
        let whole = try #require(folders["files_refused_whole"] as? [[String: Any]])
        #expect(whole.count == 1 && whole[0]["file"] as? String == "costs/vendor-b.csv" && whole[0]["rows"] as? Int == 250)
        let size = try FileManager.default.attributesOfItem(atPath: data + "/costs/vendor-b.csv")[.size] as? Int
        #expect(whole.first?["bytes"] as? Int == size)
        let page = try TestFiles.read(out + "/2026-10/report.html")
        #expect(page.contains("<div class=\"alert\" role=\"alert\">1 input file refused whole"))
        #expect(page.contains("costs/vendor-b.csv: 250 rows"))
    }

    @Test func aGlobMapsTheColumnsOfTheMatchingFilesOnly() throws {
        let data = try sampleWithRenamedColumn()
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool([
            "report", "--data", data, "--month", "2026-10", "--out", out, "--cost-column", "vendor-*.csv:cost=usd",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // 250 rows of 0.10 more than the sample's 1684.121685.
        #expect(run.stdout.contains("cost served          1709.121685 USD"))
        #expect(run.stdout.contains("everything read was counted"))
        let plain = try runTool(["validate", "--data", data, "--cost-column", "cost=usd", "--quiet"])
        #expect(plain.status == 1, "the plain form maps every file, so the sample's own files lose their cost column")
        #expect(plain.stdout.contains("refused whole: \(data)/costs/2026-10.csv"))
        let bad = try runTool(["validate", "--data", data, "--cost-column", ":cost=usd"])
        #expect(bad.status == 2 && bad.stderr.contains("GLOB:NAME=HEADER"))
    }

    @Test func everyCommandRefusesTheSameUntrustedDataWithTheSameMessage() throws {
        let data = try untrustedSample()
        let out = try TestFiles.temporaryDirectory("out")
        let expected = "error: 1,985 input rows rejected, more than --max-rejects 0"
        let fix = "test data needs its root: --trust-root FILE"
        let access = out + "/access.csv"
        let snapshot = out + "/work/2026-10.snapshot"
        let step = ["--data", data, "--month", "2026-10"]
        let runs = [
            try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet"]),
            try runTool(["validate", "--data", data, "--quiet"]),
            try runTool(["explain", "--data", data, "--account", "acct-000016"]),
            try runTool(["export-access", "--data", data, "--out", access]),
            try runTool(["snapshot", "--snapshot", snapshot] + step),
        ]
        #expect(!FileManager.default.fileExists(atPath: snapshot), "snapshot writes nothing when it refuses")
        // A snapshot allowed its rejects still refuses a partial held to the limit.
        let allowedSnapshot = try runTool(["snapshot", "--snapshot", snapshot, "--max-rejects", "2000"] + step)
        #expect(allowedSnapshot.status == 0, "\(allowedSnapshot.stderr)")
        let partial = try runTool(
            ["partial", "--snapshot", snapshot, "--file", "2026-10.csv", "--partial", out + "/work/a.partial"] + step)
        #expect(partial.status == 1 && partial.stderr.contains(expected), "\(partial.stderr.suffix(400))")
        #expect(!FileManager.default.fileExists(atPath: out + "/work/a.partial"))
        for run in runs {
            #expect(run.status == 1)
            #expect(run.stderr.contains(expected), "\(run.stderr.suffix(600))")
            #expect(run.stderr.contains("Most: 1,985 rows: signature check: chain does not reach a trusted root"))
            #expect(run.stderr.contains(fix))
        }
        #expect(!runs[2].stdout.contains("unlinked"), "explain never calls an account unlinked on refused data")
        #expect(!FileManager.default.fileExists(atPath: access), "export-access writes nothing when it refuses")

        let allowed = try runTool(["explain", "--data", data, "--account", "acct-000016", "--max-rejects", "2000"])
        #expect(allowed.status == 0)
        #expect(!allowed.stdout.contains("so its cost is unlinked"))
        #expect(allowed.stdout.contains("1,985 input rows were refused, so this may be wrong"))
    }

    @Test func refusedAppStoreDataOpensThePageWithABanner() throws {
        let data = try untrustedSample()
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--max-rejects", "2000", "--quiet"])
        #expect(run.status == 0)
        let page = try TestFiles.read(out + "/2026-10/report.html")
        let banner = try #require(page.range(of: "<div class=\"alert\" role=\"alert\">1,985 App Store lines were refused"))
        let firstFigure = try #require(page.range(of: "class=\"cards\""))
        #expect(banner.lowerBound < firstFigure.lowerBound)
        #expect(page.contains("--trust-root FILE"))

        let good = try TestFiles.read(TestFiles.packageRoot + "/reports/2026-10/report.html")
        #expect(!good.contains("role=\"alert\""))
        #expect(good.contains("<p class=\"trust\">App Store data verified"), "a good run's sentence is not red")
    }

    @Test func aWindowTheDataDoesNotTouchFailsUnlessAllowed() throws {
        let out = try TestFiles.temporaryDirectory("out")
        let sample = TestFiles.packageRoot + "/Data/sample"
        let empty = try runTool(["report", "--data", sample, "--month", "2028-01", "--out", out, "--quiet"])
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("the window 2028-01 holds no cost row and no App Store data"))
        #expect(empty.stderr.contains("cost rows in 2026-08 to 2026-10 and App Store data in 2026-06 to 2026-11"))
        #expect(!FileManager.default.fileExists(atPath: out + "/2028-01"))
        let allowed = try runTool(["report", "--data", sample, "--month", "2028-01", "--out", out, "--allow-empty", "--quiet"])
        #expect(allowed.status == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/2028-01/summary.csv"))
    }
}
