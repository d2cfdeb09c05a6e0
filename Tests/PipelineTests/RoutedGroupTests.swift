import Foundation
import Testing

@testable import Pipeline
@testable import Support
@testable import TestSupport

/// The ledger cut by account with the rows routed between tasks.
///
/// Each partial reads its cost file once and routes every row to its account's group (`partial --route`), and each group's
/// partial attributes the rows of its group against its ledger alone (`partial --group K`).
/// The same bytes as `report`, on the data of `AccountGroupTests` (a family across groups,
/// credits drawn across files, request ids repeated and reused across partials).
@Suite("Rows routed to their account's group")
struct RoutedGroupTests {
    @Test func groupPartialsOfRoutedRowsGiveTheReportsBytes() throws {
        let data = try AccountGroupTests().data()
        let root = try TestFiles.temporaryDirectory("routed")
        let arguments = ["--data", data, "--month", "2026-10", "--quiet"]
        let one = try runTool(["report", "--out", root + "/one"] + arguments)
        try #require(one.status == 0, "\(one.stderr)")
        let snapshot = root + "/s.snapshot"
        let groups = 4
        let cut = try runTool(["snapshot", "--snapshot", snapshot, "--account-groups", "\(groups)"] + arguments)
        try #require(cut.status == 0, "\(cut.stderr)")

        let parts = root + "/parts"
        let grouping = ["--account-groups", "\(groups)"]
        var run = try HandRun(snapshot: snapshot, parts: parts, arguments: grouping + arguments)
        let files = ["2026-08.csv", "2026-09.csv", "2026-10.csv"]
        for index in files.indices {
            let done = try run.partial("p\(index)", ["--file", files[index], "--route"])
            try #require(done.status == 0, "\(done.stderr)")
            for group in 0..<groups {
                #expect(FileManager.default.fileExists(atPath: parts + "/p\(index).partial.rows-\(group)-of-\(groups)"))
            }
        }
        func groupPartial(_ group: Int) throws -> ToolRun {
            try runTool(
                [
                    "partial", "--snapshot", snapshot, "--group", "\(group)", "--routed", parts, "--partial",
                    parts + "/group-\(group).partial",
                ] + grouping + arguments)
        }
        // Too early: the groups read the rows of 2026-10.csv's partial before settle had it routed again.
        for group in 0..<groups { try #require(try groupPartial(group).status == 0) }
        #expect(try run.settle() == [parts + "/p2.partial"])
        func merge() throws -> ToolRun {
            try runTool(["merge", "--snapshot", snapshot, "--partials", parts, "--out", root + "/steps"] + arguments)
        }
        let stale = try merge()
        #expect(stale.status != 0)
        #expect(
            stale.stderr.contains(
                "the partial of group 0 did not read the rows of \(parts)/p2.partial, and 1 routing partial no longer here or "
                    + "computed again since"), "\(stale.stderr)")

        for group in 0..<groups { try #require(try groupPartial(group).status == 0) }
        let merged = try merge()
        try #require(merged.status == 0, "\(merged.stderr)")
        try expectSameReport(root + "/steps/2026-10", as: root + "/one/2026-10")

        // A group's partial missing is named.
        try FileManager.default.moveItem(atPath: parts + "/group-1.partial", toPath: root + "/group-1.partial")
        try FileManager.default.moveItem(atPath: parts + "/group-1.partial.claims", toPath: root + "/group-1.partial.claims")
        let missing = try merge()
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no group partial attributed group 1: run `partial --group K`"), "\(missing.stderr)")
    }

    /// The rows of one group renamed as another's are refused by that group's partial; a
    /// routing partial needs groups, and a group's partial reads no cost file.
    @Test func rowsOfAnotherGroupAndOptionsThatCannotGoTogetherAreRefused() throws {
        let root = try TestFiles.temporaryDirectory("routed-refused")
        let arguments = ["--data", TestFiles.packageRoot + "/Data/sample", "--month", "2026-10"]
        let snapshot = root + "/s.snapshot"
        let cut = try runTool(["snapshot", "--snapshot", snapshot, "--account-groups", "2"] + arguments)
        try #require(cut.status == 0, "\(cut.stderr)")
        let parts = root + "/parts"
        try FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: true)
        let ungrouped = try runTool(
            ["partial", "--snapshot", snapshot, "--file", "2026-10.csv", "--route", "--partial", parts + "/p.partial"]
                + arguments)
        #expect(ungrouped.status != 0)
        #expect(ungrouped.stderr.contains("--route needs --account-groups G, above 1"), "\(ungrouped.stderr)")
        let routed = try runTool(
            [
                "partial", "--snapshot", snapshot, "--file", "2026-10.csv", "--route", "--account-groups", "2", "--partial",
                parts + "/p.partial",
            ] + arguments)
        try #require(routed.status == 0, "\(routed.stderr)")
        try FileManager.default.removeItem(atPath: parts + "/p.partial.rows-1-of-2")
        try FileManager.default.copyItem(atPath: parts + "/p.partial.rows-0-of-2", toPath: parts + "/p.partial.rows-1-of-2")
        let renamed = try runTool(
            [
                "partial", "--snapshot", snapshot, "--group", "1", "--account-groups", "2", "--routed", parts, "--partial",
                root + "/g1.partial",
            ] + arguments)
        #expect(renamed.status != 0)
        #expect(renamed.stderr.contains("p.partial.rows-1-of-2 holds the rows of group 0/2, not 1/2"), "\(renamed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/g1.partial"))
        let withFile = try runTool(
            [
                "partial", "--snapshot", snapshot, "--group", "0", "--file", "2026-10.csv", "--account-groups", "2", "--routed",
                parts, "--partial", root + "/g0.partial",
            ] + arguments)
        #expect(withFile.status == 2)
        #expect(withFile.stderr.contains("no --file beside it"), "\(withFile.stderr)")
        let routedAlone = try runTool(
            ["partial", "--snapshot", snapshot, "--file", "2026-10.csv", "--routed", parts, "--partial", root + "/q.partial"]
                + arguments)
        #expect(routedAlone.status == 2)
        #expect(routedAlone.stderr.contains("--group K beside it"), "\(routedAlone.stderr)")
    }
}
