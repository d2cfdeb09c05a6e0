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
                "the partials of groups 0, 1, 2, 3 did not read the rows of every routing partial as it is now (not those of "
                    + "\(parts)/p2.partial: computed again since, or new): compute each again (`partial --group K`)"),
            "\(stale.stderr)")

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

    /// A partial holds a buffer for each group's rows: 64 KB each up to a thousand groups, then
    /// 64 MB shared among them (16 KB each at the most groups, 4,096).
    @Test func theGroupsBuffersTakeAtMost64MB() {
        #expect(DistributedRun.spillBuffer(groups: 39) == 64 << 10)
        #expect(DistributedRun.spillBuffer(groups: 1024) == 64 << 10)
        #expect(DistributedRun.spillBuffer(groups: 2048) == 32 << 10)
        #expect(DistributedRun.spillBuffer(groups: 4096) == 16 << 10)
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
        #expect(ungrouped.status == 2)
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
        let outOfRange = try runTool(
            [
                "partial", "--snapshot", snapshot, "--group", "2", "--account-groups", "2", "--routed", parts, "--partial",
                root + "/g2.partial",
            ] + arguments)
        #expect(outOfRange.status == 2)
        #expect(outOfRange.stderr.contains("expected a group from 0 to 1 (--account-groups 2)"), "\(outOfRange.stderr)")
        let withFile = try runTool(
            [
                "partial", "--snapshot", snapshot, "--group", "0", "--file", "2026-10.csv", "--account-groups", "2", "--routed",
                parts, "--partial", root + "/g0.partial",
            ] + arguments)
        #expect(withFile.status == 2)
        #expect(withFile.stderr.contains("no --file beside it"), "\(withFile.stderr)")
        // A routing partial refuses a rows file it cannot write over before it writes anything.
        let earlier = try Data(contentsOf: URL(fileURLWithPath: parts + "/p.partial"))
        try FileManager.default.removeItem(atPath: parts + "/p.partial.rows-1-of-2")
        try FileManager.default.createDirectory(atPath: parts + "/p.partial.rows-1-of-2", withIntermediateDirectories: false)
        let blocked = try runTool(
            [
                "partial", "--snapshot", snapshot, "--file", "2026-10.csv", "--route", "--account-groups", "2", "--partial",
                parts + "/p.partial", "--grace", "2h",
            ] + arguments)
        #expect(blocked.status == 1)
        #expect(blocked.stderr.contains("it is not a routed rows file"), "\(blocked.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: parts + "/p.partial")) == earlier)
        // A step writes over its own earlier files only: not over the snapshot, a group's part,
        // rows it reads, a routing partial whose rows it reads, or a certificate in --data.
        let data = try copyOfSample("routed-over")
        let inData = ["--data", data, "--month", "2026-10", "--trust-root", data + "/test-root.der"]
        let snapshotOfCopy = root + "/c.snapshot"
        try #require(
            try runTool(["snapshot", "--snapshot", snapshotOfCopy, "--account-groups", "2"] + inData).status == 0)
        for (target, what) in [
            (snapshotOfCopy, "ledger snapshot"), (snapshotOfCopy + ".group-1-of-2", "ledger group snapshot"),
            (data + "/test-root.der", "certificate"),
        ] {
            let before = try Data(contentsOf: URL(fileURLWithPath: target))
            let over = try runTool(
                [
                    "partial", "--snapshot", snapshotOfCopy, "--file", "2026-10.csv", "--route", "--account-groups", "2",
                    "--partial", target,
                ] + inData)
            #expect(over.status == 1, "\(what)")
            #expect(over.stderr.contains("it is not a cost partial file, and the step would write one over it"), "\(over.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before, "\(what)")
        }
        let routing = root + "/c-parts/p.partial"
        try FileManager.default.createDirectory(atPath: root + "/c-parts", withIntermediateDirectories: true)
        try #require(
            try runTool(
                [
                    "partial", "--snapshot", snapshotOfCopy, "--file", "2026-10.csv", "--route", "--account-groups", "2",
                    "--partial", routing,
                ] + inData
            ).status == 0)
        // Its rows read from another folder, the routing partial is still not written over.
        try FileManager.default.createDirectory(atPath: root + "/c-scratch", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: routing + ".rows-0-of-2", toPath: root + "/c-scratch/p.partial.rows-0-of-2")
        let routingBefore = try Data(contentsOf: URL(fileURLWithPath: routing))
        for routed in [root + "/c-parts", root + "/c-scratch"] {
            let overRouting = try runTool(
                [
                    "partial", "--snapshot", snapshotOfCopy, "--group", "0", "--account-groups", "2", "--routed", routed,
                    "--partial", routing,
                ] + inData)
            #expect(overRouting.status == 1)
            #expect(
                overRouting.stderr.contains("it is a routing partial (p.partial.rows-0-of-2 is beside it)"),
                "\(overRouting.stderr)")
        }
        // A file beside it whose name holds a line break is named escaped: it forges no line.
        let forged = routing + ".rows-\nerror: forged"
        try TestFiles.write("", to: forged)
        let overForged = try runTool(
            [
                "partial", "--snapshot", snapshotOfCopy, "--group", "0", "--account-groups", "2", "--routed",
                root + "/c-scratch", "--partial", routing,
            ] + inData)
        #expect(overForged.status == 1)
        #expect(overForged.stderr.contains("(p.partial.rows-\\nerror: forged is beside it)"), "\(overForged.stderr)")
        #expect(!overForged.stderr.split(separator: "\n").contains { $0.hasPrefix("error: forged") })
        try FileManager.default.removeItem(atPath: forged)
        #expect(try Data(contentsOf: URL(fileURLWithPath: routing)) == routingBefore)
        // Nor does any step write over what is not its own kind: the snapshot's group parts over a
        // certificate, settle's record over a snapshot, decode --list over a snapshot; nor block
        // on a pipe named as its output.
        let certificateCopy = root + "/d.snapshot.group-0-of-2"
        try FileManager.default.copyItem(atPath: data + "/test-root.der", toPath: certificateCopy)
        let overCertificate = try runTool(["snapshot", "--snapshot", root + "/d.snapshot", "--account-groups", "2"] + inData)
        #expect(overCertificate.status == 1)
        #expect(overCertificate.stderr.contains("it is not a ledger group snapshot file"), "\(overCertificate.stderr)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: certificateCopy))
                == Data(contentsOf: URL(fileURLWithPath: data + "/test-root.der")))
        let settleFolder = root + "/s-parts"
        try FileManager.default.createDirectory(atPath: settleFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: routing, toPath: settleFolder + "/p.partial")
        try FileManager.default.copyItem(atPath: routing + ".claims", toPath: settleFolder + "/p.partial.claims")
        try FileManager.default.copyItem(atPath: snapshotOfCopy, toPath: settleFolder + "/request.settled")
        let overSnapshot = try runTool(["settle", "--snapshot", snapshotOfCopy, "--partials", settleFolder])
        #expect(overSnapshot.status == 1)
        #expect(overSnapshot.stderr.contains("it is not a request settlement file"), "\(overSnapshot.stderr)")
        let listOver = try runTool(["decode", "--list", settleFolder + "/request.settled"] + inData)
        #expect(listOver.status == 1)
        #expect(listOver.stderr.contains("it is not a list of App Store files"), "\(listOver.stderr)")
        #expect(mkfifo(root + "/fifo.partial", 0o600) == 0)
        let overPipe = try runTool(
            ["partial", "--snapshot", snapshotOfCopy, "--file", "2026-10.csv", "--partial", root + "/fifo.partial"] + inData,
            timeout: 30)
        #expect(overPipe.status == 1)
        #expect(overPipe.stderr.contains("it is not a cost partial file"), "\(overPipe.stderr)")
        let overRows = try runTool(
            [
                "partial", "--snapshot", snapshotOfCopy, "--group", "0", "--account-groups", "2", "--routed", root + "/c-parts",
                "--partial", routing + ".rows-0-of-2",
            ] + inData)
        #expect(overRows.status == 1)
        #expect(overRows.stderr.contains("it is not a cost partial file"), "\(overRows.stderr)")
        // The merge replaces OUT/LABEL whole: not a folder holding its partials.
        try FileManager.default.createDirectory(atPath: root + "/m/2026-10", withIntermediateDirectories: true)
        let mergeOver = try runTool(
            ["merge", "--snapshot", snapshotOfCopy, "--partials", root + "/m/2026-10", "--out", root + "/m"] + inData)
        #expect(mergeOver.status == 2)
        #expect(mergeOver.stderr.contains("expected a path outside"), "\(mergeOver.stderr)")
        // Nor a certificate it reads there.
        try FileManager.default.copyItem(atPath: data + "/test-root.der", toPath: root + "/m/2026-10/root.der")
        let mergeOverRoot = try runTool(
            ["merge", "--snapshot", snapshotOfCopy, "--partials", root + "/c-parts", "--out", root + "/m"]
                + ["--data", data, "--month", "2026-10", "--trust-root", root + "/m/2026-10/root.der"])
        #expect(mergeOverRoot.status == 2)
        #expect(mergeOverRoot.stderr.contains("--trust-root"), "\(mergeOverRoot.stderr)")
        #expect(FileManager.default.fileExists(atPath: root + "/m/2026-10/root.der"))

        let routedAlone = try runTool(
            ["partial", "--snapshot", snapshot, "--file", "2026-10.csv", "--routed", parts, "--partial", root + "/q.partial"]
                + arguments)
        #expect(routedAlone.status == 2)
        #expect(routedAlone.stderr.contains("--group K beside it"), "\(routedAlone.stderr)")
    }
}
