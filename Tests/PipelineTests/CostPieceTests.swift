import Foundation
import Testing

@testable import Ingest
@testable import Pipeline
@testable import Support
@testable import TestSupport

/// Large cost files read in pieces by several partials, through the real steps: each file cut
/// by `split`, a partial a piece (with and without account groups), the request ids settled
/// across pieces of one file, the merge: the same bytes as `report`, every file.
@Suite("Cost files read in pieces")
struct CostPieceTests {
    static let pieces = 3

    /// The sample, with 2026-10.csv given, a third of the way in, a row whose quoted category
    /// holds newlines and runs over the first piece's boundary (a rejected row, whose line is
    /// its first), and at its end a copy of its first row (the same event logged twice) and its
    /// second row's request id with another cost: the first in the file counts, so the two rows
    /// at the end are dropped, though another piece's partial reads them.
    func data() throws -> (data: String, spanning: Range<Int>) {
        let data = try copyOfSample()
        let path = data + "/costs/2026-10.csv"
        var lines = try TestFiles.read(path).split(separator: "\n").map(String.init)
        let repeated = lines[1]
        var reused = lines[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        reused[3] = "9.000000"
        let inside = (0..<2_000).map { "a long note, line \($0)" }.joined(separator: "\n")
        var fields = lines[10].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[1] = "acct-000001"
        fields[2] = "\"\(inside)\""
        let third = lines.count / 3 - 300
        lines.insert(fields.joined(separator: ","), at: third)
        lines += [repeated, reused.joined(separator: ",")]
        let text = lines.joined(separator: "\n") + "\n"
        try TestFiles.write(text, to: path)
        let start = Array(lines[..<third].joined(separator: "\n").utf8).count + 1
        return (data, start..<(start + Array(lines[third].utf8).count))
    }

    @Test func piecesGiveTheReportsBytes() throws {
        let (data, spanning) = try data()
        let root = try TestFiles.temporaryDirectory("pieces")
        let arguments = ["--data", data, "--month", "2026-10", "--max-rejects", "10", "--quiet"]
        let one = try runTool(["report", "--out", root + "/one"] + arguments)
        try #require(one.status == 0, "\(one.stderr)")
        let size = try #require(FileSystem.fileSize(data + "/costs/2026-10.csv"))
        #expect((1..<Self.pieces).contains { spanning.contains(size * $0 / Self.pieces) }, "the quoted row spans no target")
        let rejects = try TestFiles.read(root + "/one/2026-10/rejects.csv")
        let line = try #require(
            readRecords(data + "/costs/2026-10.csv").first { $0.fields[2].hasPrefix("a long note") }?.line)
        #expect(rejects.contains("2026-10.csv,\(line),"), "\(rejects.prefix(2_000))")

        let snapshot = root + "/s.snapshot"
        let made = try runTool(
            ["snapshot", "--snapshot", snapshot, "--accounts-per-group", "250"] + arguments.filter { $0 != "--quiet" })
        try #require(made.status == 0, "\(made.stderr)")
        let groups = try #require(
            made.stdout.split(separator: " ").firstIndex(of: "groups").map { index in
                Int(made.stdout.split(separator: " ")[index - 1])
            } ?? nil)
        let files = ["2026-08.csv", "2026-09.csv", "2026-10.csv"]
        for file in files {
            let split = try runTool(
                ["split", "--file", file, "--pieces", "\(Self.pieces)", "--split", root + "/\(file).split"]
                    + arguments.filter { $0 != "--quiet" })
            try #require(split.status == 0, "\(split.stderr)")
            #expect(split.stdout.contains("in \(Self.pieces) pieces"), "\(split.stdout)")
        }
        // The quoted row is whole in one piece: the piece after it starts after it.
        let (split, _) = try StepFiles.readSplit(root + "/2026-10.csv.split", secret: try StepSecret(testStepSecret))
        #expect(split.pieces.map(\.start).allSatisfy { !spanning.dropFirst().contains($0) })
        #expect(split.sha256 == (try SHA256.file(data + "/costs/2026-10.csv")))

        // Half the pieces against the whole snapshot, half against the groups: the same partials.
        let parts = root + "/parts"
        try FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: true)
        func partial(_ file: String, _ piece: Int, seeds: [String] = []) throws -> ToolRun {
            let grouped = piece % 2 == 0 ? ["--account-groups", "\(groups)"] : []
            return try runTool(
                [
                    "partial", "--snapshot", snapshot, "--split", root + "/\(file).split", "--piece", "\(piece)",
                    "--partial", parts + "/\(file)-\(piece).partial",
                ] + grouped + seeds.flatMap { ["--seeds", $0] } + arguments)
        }
        for file in files {
            for piece in 0..<Self.pieces {
                let done = try partial(file, piece)
                try #require(done.status == 0, "\(done.stderr)")
            }
        }
        // The last piece of 2026-10.csv claimed two ids its first piece holds: it is computed again.
        // A merge before settle (which settles the claims itself) says so, naming that partial.
        let early = try runTool(["merge", "--snapshot", snapshot, "--partials", parts, "--out", root + "/early"] + arguments)
        #expect(early.status == 1)
        #expect(
            early.stderr.contains(
                "2 request ids are claimed in more than one partial; run `refund-cost settle` and compute again, with "
                    + "their seeds, \(parts)/2026-10.csv-2.partial\n"), "\(early.stderr)")
        let settled = try runTool(["settle", "--snapshot", snapshot, "--partials", parts])
        try #require(settled.status == 0, "\(settled.stderr)")
        let again = settled.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(again.map { $0[0] } == [parts + "/2026-10.csv-2.partial"], "\(settled.stdout)")
        // Those seeds are the last piece's: another piece of the file refuses them, saying whose they are.
        let taken = try runTool(
            [
                "partial", "--snapshot", snapshot, "--split", root + "/2026-10.csv.split", "--piece", "1", "--partial",
                root + "/taken.partial", "--seeds", again[0][1],
            ] + arguments)
        #expect(taken.status == 1)
        #expect(taken.stderr.contains("settled for the partial of piece 2 of 3 of "), "\(taken.stderr)")
        #expect(
            taken.stderr.contains(", not piece 1 of 3: give this partial the seeds settle wrote beside it"), "\(taken.stderr)")
        let wholeTaken = try runTool(
            [
                "partial", "--snapshot", snapshot, "--file", "2026-10.csv", "--partial", root + "/taken.partial", "--seeds",
                again[0][1],
            ]
                + arguments)
        #expect(
            wholeTaken.stderr.contains("of piece 2 of 3 of \(data)/costs/2026-10.csv, not the whole file"), "\(wholeTaken.stderr)"
        )
        for line in again {
            let done = try partial("2026-10.csv", 2, seeds: [line[1]])
            try #require(done.status == 0, "\(done.stderr)")
        }
        let record = try runTool(["settle", "--snapshot", snapshot, "--partials", parts])
        try #require(record.status == 0 && record.stdout.isEmpty, "\(record.stdout)\(record.stderr)")
        let merged = try runTool(["merge", "--snapshot", snapshot, "--partials", parts, "--out", root + "/steps"] + arguments)
        try #require(merged.status == 0, "\(merged.stderr)")
        try expectSameReport(root + "/steps/2026-10", as: root + "/one/2026-10")
    }

    /// A gzip file and a JSON-lines file cannot be cut: piece 0 reads the file whole and the
    /// other pieces read nothing, so the report is `report`'s whatever the pieces asked for.
    @Test func aFileThatCannotBeCutIsReadOnceInItsFirstPiece() throws {
        let data = try copyOfSample()
        let root = try TestFiles.temporaryDirectory("pieces-whole")
        // 2026-09.csv gzipped; six OpenMeter events beside the CSV files.
        let september = data + "/costs/2026-09.csv"
        let compressed = try Gzip.compress(Array(try TestFiles.read(september).utf8), name: "2026-09.csv")
        try Data(compressed).write(to: URL(fileURLWithPath: september + ".gz"))
        try FileManager.default.removeItem(atPath: september)
        let events =
            try TestFiles.read(TestFiles.packageRoot + "/Tests/Fixtures/cost-formats/openmeter-2026-10.jsonl")
            .split(separator: "\n").prefix(6).joined(separator: "\n") + "\n"
        try TestFiles.write(events, to: data + "/costs/om.jsonl")
        try FileManager.default.copyItem(
            atPath: TestFiles.packageRoot + "/Tests/Fixtures/cost-formats/prices.csv", toPath: data + "/prices.csv")
        let arguments = [
            "--data", data, "--month", "2026-10", "--cost-format", "om.jsonl:openmeter", "--usage-field", "tokens", "--quiet",
        ]
        let one = try runTool(["report", "--out", root + "/one"] + arguments)
        try #require(one.status == 0, "\(one.stderr)")
        let snapshot = root + "/s.snapshot"
        try #require(try runTool(["snapshot", "--snapshot", snapshot] + arguments).status == 0)
        var run = try HandRun(snapshot: snapshot, parts: root + "/parts", arguments: arguments)
        func partial(_ name: String, _ how: [String]) throws {
            let done = try run.partial(name, how)
            try #require(done.status == 0, "\(done.stderr)")
        }
        try partial("whole", ["--file", "2026-08.csv", "--file", "2026-10.csv"])
        for file in ["2026-09.csv.gz", "om.jsonl"] {
            let split = try runTool(
                ["split", "--file", file, "--pieces", "3", "--split", root + "/\(file).split"]
                    + arguments.filter { $0 != "--quiet" })
            try #require(split.status == 0, "\(split.stderr)")
            #expect(split.stdout.contains("in 3 pieces, 2 of them empty"), "\(split.stdout)")
            for piece in 0..<3 { try partial("\(file)-\(piece)", ["--split", root + "/\(file).split", "--piece", "\(piece)"]) }
        }
        try run.settle()
        let merged = try runTool(
            ["merge", "--snapshot", snapshot, "--partials", run.parts, "--out", root + "/steps"] + arguments)
        try #require(merged.status == 0, "\(merged.stderr)")
        try expectSameReport(root + "/steps/2026-10", as: root + "/one/2026-10")
    }

    /// A piece read twice or not at all, pieces of two splits of one file, a file read whole and
    /// in pieces, a split of the file as it was before the snapshot, a piece the split does not
    /// have: each refused, saying what to do.
    @Test func piecesMissingTwiceOrOfAnotherSplitAreRefused() throws {
        let data = try copyOfSample()
        let root = try TestFiles.temporaryDirectory("pieces-refused")
        let arguments = ["--data", data, "--month", "2026-10", "--quiet"]
        let file = "2026-10.csv"
        // Split before the file changed, then the snapshot of it as it is now.
        let early = try runTool(["split", "--file", file, "--pieces", "2", "--split", root + "/early.split"] + arguments)
        try #require(early.status == 0, "\(early.stderr)")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/costs/" + file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("2026-10-03T00:00:00Z,acct-000001,api,0.010000,USD,1,token,req-late\n".utf8))
        try handle.close()
        let snapshot = root + "/s.snapshot"
        try #require(try runTool(["snapshot", "--snapshot", snapshot] + arguments).status == 0)
        var run = try HandRun(snapshot: snapshot, parts: root + "/parts", arguments: arguments)
        let parts = run.parts
        func partial(_ name: String, _ how: [String]) throws -> ToolRun { try run.partial(name, how) }
        let stale = try partial("stale", ["--split", root + "/early.split", "--piece", "0"])
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("as it was at another time than the snapshot and now"), "\(stale.stderr)")
        #expect(stale.stderr.contains("split the file again"), "\(stale.stderr)")
        #expect(!FileManager.default.fileExists(atPath: parts + "/stale.partial"))

        for (name, pieces) in [("a", 2), ("b", 3)] {
            let split = try runTool(
                ["split", "--file", file, "--pieces", "\(pieces)", "--split", root + "/\(name).split"] + arguments)
            try #require(split.status == 0, "\(split.stderr)")
        }
        let beyond = try partial("beyond", ["--split", root + "/a.split", "--piece", "2"])
        #expect(beyond.status == 1)
        #expect(beyond.stderr.contains("in 2 pieces, numbered 0 to 1"), "\(beyond.stderr)")
        let both = try partial("both", ["--split", root + "/a.split", "--piece", "0", "--file", file])
        #expect(both.status == 2)
        #expect(both.stderr.contains("either --file or --split and --piece, not both"), "\(both.stderr)")

        for (name, how) in [
            ("p08", ["--file", "2026-08.csv"]), ("p09", ["--file", "2026-09.csv"]),
            ("a0", ["--split", root + "/a.split", "--piece", "0"]),
        ] {
            let done = try partial(name, how)
            try #require(done.status == 0, "\(done.stderr)")
        }
        func merge() throws -> ToolRun {
            try runTool(["merge", "--snapshot", snapshot, "--partials", parts, "--out", root + "/out"] + arguments)
        }
        let missing = try merge()
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no partial read piece 1 of 2 of \(data)/costs/\(file)"), "\(missing.stderr)")

        try #require(try partial("b1", ["--split", root + "/b.split", "--piece", "1"]).status == 0)
        let mixed = try merge()
        #expect(mixed.stderr.contains("the pieces of \(data)/costs/\(file) come from different splits"), "\(mixed.stderr)")
        try FileManager.default.removeItem(atPath: parts + "/b1.partial")
        try FileManager.default.removeItem(atPath: parts + "/b1.partial.claims")

        try #require(try partial("a1", ["--split", root + "/a.split", "--piece", "1"]).status == 0)
        try FileManager.default.copyItem(atPath: parts + "/a1.partial", toPath: parts + "/a1-again.partial")
        try FileManager.default.copyItem(atPath: parts + "/a1.partial.claims", toPath: parts + "/a1-again.partial.claims")
        let twice = try merge()
        #expect(twice.stderr.contains("piece 1 of 2 of \(data)/costs/\(file) is in two partials"), "\(twice.stderr)")
        let settleTwice = try runTool(["settle", "--snapshot", snapshot, "--partials", parts])
        #expect(settleTwice.status == 1)
        #expect(settleTwice.stderr.contains("is in two partials"), "\(settleTwice.stderr)")
        for name in ["a1-again.partial", "a1-again.partial.claims"] {
            try FileManager.default.removeItem(atPath: parts + "/" + name)
        }

        try #require(try partial("whole", ["--file", file]).status == 0)
        let wholeAndPieces = try merge()
        #expect(
            wholeAndPieces.stderr.contains("\(data)/costs/\(file) is read whole by one partial and in pieces by others"),
            "\(wholeAndPieces.stderr)")
        let settleWhole = try runTool(["settle", "--snapshot", snapshot, "--partials", parts])
        #expect(settleWhole.stderr.contains("is read whole by one partial and in pieces by others"), "\(settleWhole.stderr)")
        try FileManager.default.removeItem(atPath: parts + "/whole.partial")
        try FileManager.default.removeItem(atPath: parts + "/whole.partial.claims")
        // Request ids repeated on both sides of the cut, if any, settled as usual.
        try run.settle()
        let done = try merge()
        #expect(done.status == 0, "\(done.stderr)")
    }
}
