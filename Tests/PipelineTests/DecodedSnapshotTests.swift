import Foundation
import Testing

@testable import Ingest
@testable import Pipeline
@testable import Support
@testable import TestSupport

/// Step 0 of a distributed report: App Store files decoded and verified in groups (as many
/// machines would), then the snapshot kept from the groups, without reading Apple's data again.
@Suite("snapshot from decoded groups")
struct DecodedSnapshotTests {
    /// A generated set of five months: six App Store files (a notification file a month, the
    /// histories), one of them with a line that is refused.
    static func data(_ label: String) throws -> String {
        let data = try TestFiles.temporaryDirectory(label) + "/data"
        let generate = try runTool(["generate", "--out", data, "--accounts", "250", "--seed", "21", "--months", "5", "--quiet"])
        try #require(generate.status == 0, "\(generate.stderr)")
        let month = data + "/notifications/2026-09.jsonl"
        try TestFiles.write(try TestFiles.read(month) + "{\"signedPayload\": \"not a JWS\"}\n", to: month)
        return data
    }

    func arguments(_ data: String) -> [String] {
        ["--data", data, "--month", "2026-10", "--max-rejects", "1", "--verified-files", "none"]
    }

    /// The snapshot's content with `key` as its request key (drawn at random by every snapshot).
    func content(_ path: String, key: SipHash) throws -> [UInt8] {
        var snapshot = try StepFiles.readSnapshot(path, secret: try StepSecret(testStepSecret)).snapshot
        snapshot.requestKey = key
        return try CompactCoder.encode(snapshot)
    }

    @Test(arguments: [1, 2, 5])
    func groupsGiveTheOneProcessSnapshot(groups: Int) throws {
        let data = try Self.data("groups\(groups)")
        let work = try TestFiles.temporaryDirectory("work\(groups)")
        let whole = try runTool(["snapshot", "--snapshot", work + "/whole.snapshot"] + arguments(data))
        try #require(whole.status == 0, "\(whole.stderr)")
        let listed = try runTool(["decode", "--list", work + "/files.txt"] + arguments(data))
        try #require(listed.status == 0, "\(listed.stderr)")
        let files = try TestFiles.read(work + "/files.txt").split(separator: "\n").map { $0.split(separator: "\t")[1] }
        try #require(files.count >= 6, "\(files)")
        try FileManager.default.createDirectory(atPath: work + "/decoded", withIntermediateDirectories: true)
        for group in 0..<groups {
            let mine = files.enumerated().filter { $0.offset % groups == group }.flatMap { ["--file", String($0.element)] }
            let out = work + "/decoded/g\(group).decoded"
            if group == groups - 1 {
                // This group's task fails once (its machine loses a file), writing nothing, and runs again.
                let failed = try runTool(
                    ["decode", "--file", data + "/notifications/gone.jsonl", "--decoded", out] + arguments(data))
                #expect(failed.status != 0)
                #expect(!FileManager.default.fileExists(atPath: out))
            }
            let run = try runTool(["decode", "--decoded", out] + mine + arguments(data) + ["--threads", "1"])
            try #require(run.status == 0, "\(run.stderr)")
        }
        let pieced = try runTool(
            ["snapshot", "--snapshot", work + "/pieced.snapshot", "--decoded", work + "/decoded"] + arguments(data))
        try #require(pieced.status == 0, "\(pieced.stderr)")
        let key = try StepFiles.readSnapshot(work + "/whole.snapshot", secret: try StepSecret(testStepSecret)).snapshot.requestKey
        #expect(try content(work + "/pieced.snapshot", key: key) == (try content(work + "/whole.snapshot", key: key)))
        let snapshot = try StepFiles.readSnapshot(work + "/pieced.snapshot", secret: try StepSecret(testStepSecret)).snapshot
        #expect(snapshot.rejects.count == 1, "the refused line is the snapshot's, once")

        // A group decoded again (a task run twice) changes nothing; a group missing is refused.
        let again = files.enumerated().filter { $0.offset % groups == 0 }.flatMap { ["--file", String($0.element)] }
        #expect(try runTool(["decode", "--decoded", work + "/decoded/copy.decoded"] + again + arguments(data)).status == 0)
        let twice = try runTool(
            ["snapshot", "--snapshot", work + "/twice.snapshot", "--decoded", work + "/decoded"] + arguments(data))
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(try content(work + "/twice.snapshot", key: key) == (try content(work + "/whole.snapshot", key: key)))
        try FileManager.default.removeItem(atPath: work + "/decoded/g0.decoded")
        try FileManager.default.removeItem(atPath: work + "/decoded/copy.decoded")
        let missing = try runTool(
            ["snapshot", "--snapshot", work + "/missing.snapshot", "--decoded", work + "/decoded"] + arguments(data))
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no group decoded this App Store file"), "\(missing.stderr)")
    }

    @Test func aGroupDecodedWithOtherOptionsIsRefused() throws {
        let data = try Self.data("options")
        let work = try TestFiles.temporaryDirectory("work")
        try FileManager.default.createDirectory(atPath: work + "/decoded", withIntermediateDirectories: true)
        let listed = try runTool(["decode", "--list", work + "/files.txt"] + arguments(data))
        try #require(listed.status == 0)
        let files = try TestFiles.read(work + "/files.txt").split(separator: "\n").flatMap {
            ["--file", String($0.split(separator: "\t")[1])]
        }
        #expect(
            try runTool(
                ["decode", "--decoded", work + "/decoded/a.decoded"] + files + arguments(data) + ["--environment", "Sandbox"]
            ).status == 0)
        let run = try runTool(["snapshot", "--snapshot", work + "/s.snapshot", "--decoded", work + "/decoded"] + arguments(data))
        #expect(run.status == 1)
        #expect(run.stderr.contains("decoded with other options"), "\(run.stderr)")
    }
}
