import Foundation
import Testing

@testable import Ingest
@testable import Pipeline
@testable import Support
@testable import TestSupport

/// Large App Store files decoded in pieces by several decodes: each file cut by `split` at line
/// feeds, a decode a piece, the snapshot keeping the pieces in order as one reading of the file.
@Suite("App Store files decoded in pieces")
struct DecodedPieceTests {
    static let pieces = 4

    /// The generated set of `DecodedSnapshotTests`, with, a third of the way into 2026-08.jsonl,
    /// a line that is refused and holds an odd number of quote bytes (an escaped quote inside a
    /// string): a cut that counted quotes as a CSV file's would never cut after it.
    static func data(_ label: String) throws -> (data: String, oddLine: Int) {
        let data = try DecodedSnapshotTests.data(label)
        let path = data + "/notifications/2026-08.jsonl"
        var lines = try TestFiles.read(path).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let third = lines.count / 3
        lines.insert(#"{"signedPayload": "not a \" JWS"}"#, at: third)
        try TestFiles.write(lines.joined(separator: "\n"), to: path)
        return (data, third + 1)
    }

    func arguments(_ data: String) -> [String] {
        ["--data", data, "--month", "2026-10", "--max-rejects", "2", "--verified-files", "none"]
    }

    /// Cuts `file` (a path inside `data`) into `pieces` pieces, into `out`.
    func split(_ data: String, _ file: String, pieces: Int, to out: String) throws {
        let run = try runTool(["split", "--file", file, "--pieces", "\(pieces)", "--split", out] + arguments(data))
        try #require(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("in \(pieces) pieces"), "\(run.stdout)")
    }

    func decode(_ data: String, _ how: [String], to out: String) throws -> ToolRun {
        try runTool(["decode", "--decoded", out] + how + arguments(data) + ["--threads", "1"])
    }

    func snapshot(_ data: String, _ work: String, _ name: String) throws -> ToolRun {
        try runTool(["snapshot", "--snapshot", work + "/" + name, "--decoded", work + "/decoded"] + arguments(data))
    }

    /// Every JSON-lines file in pieces (the notification CSV export too, which stays whole in
    /// its first piece), the histories whole: the snapshot is the one a single process makes,
    /// byte for byte once its random request key is set aside, with the refused lines at their
    /// own lines and each file's SHA-256 from its split.
    @Test func piecesGiveTheOneProcessSnapshot() throws {
        let (data, oddLine) = try Self.data("pieces")
        let work = try TestFiles.temporaryDirectory("decode-pieces")
        let whole = try runTool(["snapshot", "--snapshot", work + "/whole.snapshot"] + arguments(data))
        try #require(whole.status == 0, "\(whole.stderr)")
        try FileManager.default.createDirectory(atPath: work + "/decoded", withIntermediateDirectories: true)
        let notifications = try FileManager.default.contentsOfDirectory(atPath: data + "/notifications").sorted()
        try #require(notifications.contains("late-export.csv") && notifications.count >= 6, "\(notifications)")
        for name in notifications {
            let splitPath = work + "/\(name).split"
            try split(data, "notifications/" + name, pieces: Self.pieces, to: splitPath)
            for piece in 0..<Self.pieces {
                let run = try decode(
                    data, ["--split", splitPath, "--piece", "\(piece)"], to: work + "/decoded/\(name)-\(piece).decoded")
                try #require(run.status == 0, "\(run.stderr)")
            }
        }
        let (cut, _) = try StepFiles.readSplit(work + "/2026-08.jsonl.split", secret: try StepSecret(testStepSecret))
        #expect(cut.pieces.filter { $0.start < $0.end }.count == Self.pieces, "every piece holds lines")
        #expect(cut.sha256 == (try SHA256.file(data + "/notifications/2026-08.jsonl")))
        let (export, _) = try StepFiles.readSplit(work + "/late-export.csv.split", secret: try StepSecret(testStepSecret))
        #expect(export.pieces.map(\.start).dropFirst().allSatisfy { $0 == export.identity.bytes }, "a CSV export is whole")
        let history = try decode(data, ["--file", "transactions/history.jsonl"], to: work + "/decoded/history.decoded")
        try #require(history.status == 0, "\(history.stderr)")
        // A piece decoded again (a task run twice) counts once.
        let again = try decode(
            data, ["--split", work + "/2026-08.jsonl.split", "--piece", "1"], to: work + "/decoded/again.decoded")
        try #require(again.status == 0, "\(again.stderr)")

        let pieced = try snapshot(data, work, "pieced.snapshot")
        try #require(pieced.status == 0, "\(pieced.stderr)")
        let secret = try StepSecret(testStepSecret)
        let key = try StepFiles.readSnapshot(work + "/whole.snapshot", secret: secret).snapshot.requestKey
        let test = DecodedSnapshotTests()
        #expect(try test.content(work + "/pieced.snapshot", key: key) == (try test.content(work + "/whole.snapshot", key: key)))
        let rejects = try StepFiles.readSnapshot(work + "/pieced.snapshot", secret: secret).snapshot.rejects
        #expect(rejects.count == 2, "the two refused lines, once each")
        #expect(rejects.contains { $0.file.hasSuffix("2026-08.jsonl") && $0.line == oddLine }, "\(rejects)")
    }

    /// The pieces must make one reading of a file: a piece missing, a file decoded whole and in
    /// pieces, and pieces of two splits are refused; so is a split of a file changed since, a
    /// split of a cost file given to decode, and a split of an App Store file given to partial.
    @Test func piecesThatDoNotMakeOneReadingAreRefused() throws {
        let (data, _) = try Self.data("refusals")
        let work = try TestFiles.temporaryDirectory("decode-refusals")
        let decoded = work + "/decoded"
        try FileManager.default.createDirectory(atPath: decoded, withIntermediateDirectories: true)
        let file = "notifications/2026-08.jsonl"
        try split(data, file, pieces: 3, to: work + "/three.split")
        try split(data, file, pieces: 2, to: work + "/two.split")
        let listed = try runTool(["decode", "--list", work + "/files.txt"] + arguments(data))
        try #require(listed.status == 0, "\(listed.stderr)")
        let others = try TestFiles.read(work + "/files.txt").split(separator: "\n").map { String($0.split(separator: "\t")[1]) }
            .filter { !$0.hasSuffix("2026-08.jsonl") }
        try #require(try decode(data, others.flatMap { ["--file", $0] }, to: decoded + "/others.decoded").status == 0)
        for piece in [0, 2] {
            let run = try decode(
                data, ["--split", work + "/three.split", "--piece", "\(piece)"], to: decoded + "/\(piece).decoded")
            try #require(run.status == 0, "\(run.stderr)")
        }
        let missing = try snapshot(data, work, "s.snapshot")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no group decoded piece 1 of the 3 of its split"), "\(missing.stderr)")

        let otherSplit = try decode(data, ["--split", work + "/two.split", "--piece", "1"], to: decoded + "/1.decoded")
        try #require(otherSplit.status == 0, "\(otherSplit.stderr)")
        let two = try snapshot(data, work, "s.snapshot")
        #expect(two.status == 1)
        #expect(two.stderr.contains("pieces of two different splits of this file"), "\(two.stderr)")
        #expect(two.stderr.contains("\(decoded)/1.decoded"), "the other split's decoded file is named: \(two.stderr)")

        try FileManager.default.removeItem(atPath: decoded + "/1.decoded")
        try #require(try decode(data, ["--file", file], to: decoded + "/whole.decoded").status == 0)
        let both = try snapshot(data, work, "s.snapshot")
        #expect(both.status == 1)
        #expect(
            both.stderr.contains(
                "decoded whole in \(decoded)/whole.decoded and in pieces in \(decoded)/0.decoded, \(decoded)/2.decoded"),
            "\(both.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work + "/s.snapshot"))

        let beyond = try decode(data, ["--split", work + "/three.split", "--piece", "3"], to: work + "/x.decoded")
        #expect(beyond.status == 1)
        #expect(beyond.stderr.contains("in 3 pieces, numbered 0 to 2, not into a piece 3"), "\(beyond.stderr)")

        try split(data, "2026-10.csv", pieces: 2, to: work + "/costs.split")
        let costSplit = try decode(data, ["--split", work + "/costs.split", "--piece", "0"], to: work + "/x.decoded")
        #expect(costSplit.status == 1)
        #expect(costSplit.stderr.contains("this is a cost file, not an App Store file: `partial --split"), "\(costSplit.stderr)")
        let made = try runTool(["snapshot", "--snapshot", work + "/p.snapshot"] + arguments(data))
        try #require(made.status == 0, "\(made.stderr)")
        let partial = try runTool(
            [
                "partial", "--snapshot", work + "/p.snapshot", "--split", work + "/three.split", "--piece", "0", "--partial",
                work + "/x.partial",
            ] + arguments(data))
        #expect(partial.status == 1)
        #expect(partial.stderr.contains("not a cost file: decode its pieces with `decode --split"), "\(partial.stderr)")

        // The file appended to after its split: decode refuses the split, and says what to do.
        let path = data + "/" + file
        try TestFiles.write(try TestFiles.read(path) + "\n", to: path)
        let changed = try decode(data, ["--split", work + "/three.split", "--piece", "1"], to: work + "/x.decoded")
        #expect(changed.status == 1)
        #expect(changed.stderr.contains("changed since it was split"), "\(changed.stderr)")
        #expect(changed.stderr.contains("split it again, then decode every piece"), "\(changed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work + "/x.decoded"))
    }

    /// A folder holding decodings of a file as it was before beside those of the file as it is
    /// takes the current ones; with none current, or a decoding of a file gone, the snapshot
    /// names the decoded files to remove and says what to do; a decoding whose inode is not the
    /// file's (another file put in its place) is not current.
    @Test func decodingsOfAFileAsItWasAreSetAsideOrNamed() throws {
        let (data, _) = try Self.data("stale")
        let work = try TestFiles.temporaryDirectory("decode-stale")
        let decoded = work + "/decoded"
        try FileManager.default.createDirectory(atPath: decoded, withIntermediateDirectories: true)
        let whole = try runTool(["snapshot", "--snapshot", work + "/whole.snapshot"] + arguments(data))
        try #require(whole.status == 0, "\(whole.stderr)")
        let listed = try runTool(["decode", "--list", work + "/files.txt"] + arguments(data))
        try #require(listed.status == 0, "\(listed.stderr)")
        let files = try TestFiles.read(work + "/files.txt").split(separator: "\n").map { String($0.split(separator: "\t")[1]) }
        let file = "notifications/2026-09.jsonl"
        let others = files.filter { !$0.hasSuffix("2026-09.jsonl") }
        try #require(try decode(data, others.flatMap { ["--file", $0] }, to: decoded + "/others.decoded").status == 0)
        // Decoded, then the file touched (its times change, not its bytes): that decoding is stale.
        try #require(try decode(data, ["--file", file], to: decoded + "/z-before.decoded").status == 0)
        let path = data + "/" + file
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: path)
        let stale = try snapshot(data, work, "s.snapshot")
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("the file changed since \(decoded)/z-before.decoded decoded it"), "\(stale.stderr)")
        #expect(stale.stderr.contains("decode it again (decodings of the file as it was are then set aside)"), "\(stale.stderr)")
        // Decoded again beside it: the current decoding is taken, the stale one set aside.
        try #require(try decode(data, ["--file", file], to: decoded + "/a-after.decoded").status == 0)
        let taken = try snapshot(data, work, "s.snapshot")
        try #require(taken.status == 0, "\(taken.stderr)")
        let secret = try StepSecret(testStepSecret)
        let key = try StepFiles.readSnapshot(work + "/whole.snapshot", secret: secret).snapshot.requestKey
        let test = DecodedSnapshotTests()
        #expect(try test.content(work + "/s.snapshot", key: key) == (try test.content(work + "/whole.snapshot", key: key)))

        // The current decoding made to say another inode: another file in the file's place.
        var forged = try StepFiles.readDecoded(decoded + "/a-after.decoded", secret: secret)
        forged.files[0].identity.inode = forged.files[0].identity.inode.map { $0 + 1 }
        try StepFiles.write(forged, to: decoded + "/a-after.decoded", secret: secret)
        let otherInode = try snapshot(data, work, "s.snapshot")
        #expect(otherInode.status == 1)
        #expect(otherInode.stderr.contains("the file changed since"), "\(otherInode.stderr)")
        try FileManager.default.removeItem(atPath: decoded + "/a-after.decoded")
        try FileManager.default.removeItem(atPath: decoded + "/z-before.decoded")

        // In pieces, a file changed since asks for a new split.
        try split(data, file, pieces: 2, to: work + "/two.split")
        for piece in 0..<2 {
            let run = try decode(
                data, ["--split", work + "/two.split", "--piece", "\(piece)"], to: decoded + "/p\(piece).decoded")
            try #require(run.status == 0, "\(run.stderr)")
        }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: path)
        let pieces = try snapshot(data, work, "s.snapshot")
        #expect(pieces.status == 1)
        #expect(pieces.stderr.contains("split it again, then decode every piece"), "\(pieces.stderr)")

        // A file gone since it was decoded: the decoding that holds it is named.
        try FileManager.default.removeItem(atPath: path)
        let gone = try snapshot(data, work, "s.snapshot")
        #expect(gone.status == 1)
        #expect(
            gone.stderr.contains("\(decoded)/p0.decoded decoded \(data)/\(file), which is not an App Store file of --data"),
            "\(gone.stderr)")
    }

    /// A step's output named over an input of the run, or into one of its input folders, is
    /// refused, and the input is left as it was.
    @Test func aStepWritesNoFileAmongTheInputs() throws {
        let (data, _) = try Self.data("outputs")
        let work = try TestFiles.temporaryDirectory("decode-outputs")
        let input = data + "/notifications/2026-09.jsonl"
        let before = try TestFiles.read(input)
        let over = try decode(data, ["--file", "notifications/2026-10.jsonl"], to: input)
        #expect(over.status == 1)
        #expect(over.stderr.contains("it is an input of --data \(data)"), "\(over.stderr)")
        #expect(try TestFiles.read(input) == before)
        let among = try decode(data, ["--file", "notifications/2026-10.jsonl"], to: data + "/costs/new.decoded")
        #expect(among.status == 1)
        #expect(among.stderr.contains("it would be read as an input of --data"), "\(among.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data + "/costs/new.decoded"))
        let splitOver = try runTool(
            ["split", "--file", "2026-10.csv", "--pieces", "2", "--split", data + "/costs/2026-09.csv"] + arguments(data))
        #expect(splitOver.status == 1)
        #expect(splitOver.stderr.contains("it is an input of --data"), "\(splitOver.stderr)")
        let made = try runTool(["snapshot", "--snapshot", work + "/s.snapshot"] + arguments(data))
        try #require(made.status == 0, "\(made.stderr)")
        let partial = try runTool(
            ["partial", "--snapshot", work + "/s.snapshot", "--file", "2026-10.csv", "--partial", data + "/accounts.csv"]
                + arguments(data))
        #expect(partial.status == 1)
        #expect(partial.stderr.contains("it is an input of --data"), "\(partial.stderr)")
        let snapshotOver = try runTool(["snapshot", "--snapshot", data + "/transactions/x.snapshot"] + arguments(data))
        #expect(snapshotOver.status == 1)
        #expect(snapshotOver.stderr.contains("it would be read as an input of --data"), "\(snapshotOver.stderr)")
        // Through a folder not made yet, a sub-folder of inputs, a name the layout reads when
        // present, and the list of App Store files: refused alike.
        for (command, out) in [
            (
                ["partial", "--snapshot", work + "/s.snapshot", "--file", "2026-10.csv", "--partial"],
                data + "/nx/../accounts.csv"
            ),
            (["decode", "--file", "notifications/2026-10.jsonl", "--decoded"], data + "/transactions/old/x.decoded"),
            (["partial", "--snapshot", work + "/s.snapshot", "--file", "2026-10.csv", "--partial"], data + "/prices.csv"),
            (["decode", "--list"], data + "/costs/list.csv"),
        ] {
            let run = try runTool(command + [out] + arguments(data))
            #expect(run.status == 1, "\(command) \(out)")
            #expect(run.stderr.contains("input of --data"), "\(run.stderr)")
        }
        #expect(try TestFiles.read(data + "/accounts.csv").hasPrefix("account_id"))
        #expect(!FileManager.default.fileExists(atPath: data + "/prices.csv"))
        #expect(!FileManager.default.fileExists(atPath: data + "/costs/list.csv"))
    }
}
