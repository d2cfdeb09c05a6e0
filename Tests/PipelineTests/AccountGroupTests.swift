import Foundation
import Testing

@testable import Ingest
@testable import Ledger
@testable import Pipeline
@testable import Report
@testable import Support
@testable import TestSupport

/// The ledger cut by account on one machine, through the real steps: the snapshot cut in groups
/// of at most N accounts, a partial per cost file reading one group's ledger at a time, the
/// request ids settled and the partials that lost one computed again, then the merge: the same
/// bytes as `report`, with a family whose member and purchaser sit in different groups, credits
/// drawn first in first out across files, a request id repeated (and one reused with other
/// content) across partials, and a partial that fails once and runs again.
@Suite("The ledger cut by account")
struct AccountGroupTests {
    /// The sample, with 2026-08.csv given a copy of a row of 2026-10.csv (the same event logged
    /// twice) and 2026-09.csv a row reusing another of its request ids with other content: the
    /// first in file order counts, so 2026-10.csv's two rows are dropped.
    func data() throws -> String {
        let data = try copyOfSample()
        let october = try TestFiles.read(data + "/costs/2026-10.csv").split(separator: "\n").map(String.init)
        let repeated = october[1]
        var reused = october[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        reused[3] = "9.000000"
        for (file, line) in [("2026-08.csv", repeated), ("2026-09.csv", reused.joined(separator: ","))] {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/costs/" + file))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data((line + "\n").utf8))
            try handle.close()
        }
        return data
    }

    @Test func groupsOfAtMostNAccountsGiveTheReportsBytes() throws {
        let data = try data()
        let root = try TestFiles.temporaryDirectory("cut")
        let arguments = ["--data", data, "--month", "2026-10", "--quiet"]
        let one = try runTool(["report", "--out", root + "/one"] + arguments)
        try #require(one.status == 0, "\(one.stderr)")
        // The two rows of 2026-10.csv are dropped besides the sample's own duplicates.
        func costDuplicates(_ runJSON: String) throws -> Int {
            let run = try JSONSerialization.jsonObject(with: Data(TestFiles.read(runJSON).utf8)) as? [String: Any]
            let folders = try #require((run?["input_folders"] as? [String: Any])?["folders"] as? [[String: Any]])
            let costs = try #require(folders.first { $0["folder"] as? String == "costs" })
            return try #require(costs["duplicates"] as? Int)
        }
        #expect(
            try costDuplicates(root + "/one/2026-10/run.json")
                == (try costDuplicates(TestFiles.packageRoot + "/reports/2026-10/run.json")) + 2)

        let snapshot = root + "/s.snapshot"
        let cut = try runTool(
            ["snapshot", "--snapshot", snapshot, "--accounts-per-group", "250"] + arguments.filter { $0 != "--quiet" })
        try #require(cut.status == 0, "\(cut.stderr)")
        let ledger = try StepFiles.readSnapshot(snapshot, secret: try StepSecret(testStepSecret)).snapshot.load().ledger
        let groups = (ledger.accounts.count + 249) / 250
        try #require(groups >= 3, "the sample holds \(ledger.accounts.count) accounts")
        #expect(cut.stdout.contains("cut in \(groups) groups of accounts"), "\(cut.stdout)")
        let written = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix("s.snapshot.group-") }
        #expect(Set(written) == Set((0..<groups).map { "s.snapshot.group-\($0)-of-\(groups)" }))

        // What the cut must carry across groups is in this data.
        var accountOf: [String: String] = [:]
        ledger.withTransactions { transactions in
            for transaction in transactions {
                if let account = transaction.account {
                    accountOf[transaction.box.record.transactionID] = ledger.accounts[account]
                }
            }
        }
        let links = try readRecords(root + "/one/2026-10/family_links.csv").dropFirst()
        let spanning = links.filter { link in
            guard let purchaser = accountOf[link.fields[3]] else { return false }
            return AccountGroup.of(link.fields[1], groups: groups) != AccountGroup.of(purchaser, groups: groups)
        }
        #expect(!spanning.isEmpty, "no family has its member and its purchaser in different groups")
        var creditFiles: [String: Set<String>] = [:]
        for file in ["2026-08.csv", "2026-09.csv", "2026-10.csv"] {
            for row in try readRecords(data + "/costs/" + file).dropFirst() where row.fields[6] == "credit" {
                creditFiles[row.fields[1], default: []].insert(file)
            }
        }
        #expect(creditFiles.values.contains { $0.count > 1 }, "no account draws credits in two files")

        let files = ["2026-08.csv", "2026-09.csv", "2026-10.csv"]
        let parts = root + "/parts"
        var run = try HandRun(snapshot: snapshot, parts: parts, arguments: ["--account-groups", "\(groups)"] + arguments)
        // The last partial's task fails once (its machine cannot read a file), writes nothing, and runs again.
        let failed = try run.partial("p2", ["--file", "gone.csv"])
        #expect(failed.status != 0)
        #expect(!FileManager.default.fileExists(atPath: parts + "/p2.partial"))
        for index in files.indices {
            let done = try run.partial("p\(index)", ["--file", files[index]])
            try #require(done.status == 0, "\(done.stderr)")
        }
        // 2026-10.csv's partial claimed the two ids the earlier files hold: it is computed again.
        let again = try run.settle()
        #expect(again == [parts + "/p2.partial"])
        let merged = try runTool(["merge", "--snapshot", snapshot, "--partials", parts, "--out", root + "/steps"] + arguments)
        try #require(merged.status == 0, "\(merged.stderr)")
        try expectSameReport(root + "/steps/2026-10", as: root + "/one/2026-10")
    }

    /// Groups as large as every account are one group: no part is written.
    ///
    /// The two ways of saying how many groups cannot both be given.
    @Test func oneGroupWritesNoPartAndTheTwoOptionsAreRefusedTogether() throws {
        let root = try TestFiles.temporaryDirectory("one-group")
        let arguments = ["--data", TestFiles.packageRoot + "/Data/sample", "--month", "2026-10"]
        let whole = try runTool(["snapshot", "--snapshot", root + "/s.snapshot", "--accounts-per-group", "1000000"] + arguments)
        try #require(whole.status == 0, "\(whole.stderr)")
        #expect(!whole.stdout.contains("groups of accounts"), "\(whole.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["s.snapshot"])
        let both = try runTool(
            ["snapshot", "--snapshot", root + "/t.snapshot", "--accounts-per-group", "10", "--account-groups", "2"] + arguments)
        #expect(both.status == 2)
        #expect(both.stderr.contains("either --account-groups or --accounts-per-group, not both"), "\(both.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/t.snapshot"))
    }
}
