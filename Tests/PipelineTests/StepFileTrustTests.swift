import Foundation
import Testing

@testable import Ingest
@testable import Pipeline
@testable import Support
@testable import TestSupport

/// The files between the steps of a distributed report are inputs of the next step: whoever
/// can write the storage between the steps, but does not hold the run's secret, cannot make
/// one that a step accepts; and an App Store file changed after it was decoded is refused.
@Suite("the files between the steps")
struct StepFileTrustTests {
    static func data(_ label: String) throws -> String {
        let data = try TestFiles.temporaryDirectory(label) + "/data"
        let generate = try runTool(["generate", "--out", data, "--accounts", "120", "--seed", "9", "--quiet"])
        try #require(generate.status == 0, "\(generate.stderr)")
        return data
    }

    func arguments(_ data: String, out: String) -> [String] {
        ["--data", data, "--month", "2026-10", "--out", out, "--verified-files", "none"]
    }

    /// The file at `path` with its content changed by `edit` and its check made again as a
    /// forger without the secret can: a SHA-256, or a MAC under a secret of their own.
    static func forge(_ path: String, macKey: String?, _ edit: (inout [UInt8]) -> Bool) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        let first = String(decoding: lines[0], as: UTF8.self)
        var content = try Gzip.decompress(Array(lines[2]), name: path)
        #expect(edit(&content), "the forger finds what to change in \(path)")
        let compressed = try Gzip.compress(content, name: path)
        let check =
            macKey.map { "hmac-sha256 " + HMACSHA256.mac(key: Array($0.utf8), [Array((first + "\n").utf8), compressed]) }
            ?? "sha256 " + content.withUnsafeBytes(SHA256.digest)
        let forged = Array((first + "\n" + check + "\n").utf8) + compressed
        try Data(forged).write(to: URL(fileURLWithPath: path))
    }

    /// Every `EUR` of `content` made `USD`: every price in euros would count as dollars.
    static func euroToDollar(_ content: inout [UInt8]) -> Bool {
        let euro = Array("EUR".utf8)
        let dollar = Array("USD".utf8)
        var changed = false
        var index = 0
        while index + 3 <= content.count {
            if Array(content[index..<(index + 3)]) == euro {
                content.replaceSubrange(index..<(index + 3), with: dollar)
                changed = true
            }
            index += 1
        }
        return changed
    }

    /// Every `EUR` of every piece of a decoded file made `USD`, each piece gzipped again: the
    /// forger knows the format.
    static func euroToDollarInPieces(_ content: inout [UInt8]) -> Bool {
        guard var decoded = try? CompactCoder.decode(DecodedFiles.self, from: content) else { return false }
        var changed = false
        for file in decoded.files.indices {
            for piece in decoded.files[file].pieces.indices {
                guard var bytes = try? Gzip.decompress(decoded.files[file].pieces[piece], name: "piece") else { return false }
                if euroToDollar(&bytes) { changed = true }
                guard let again = try? Gzip.compress(bytes, name: "piece") else { return false }
                decoded.files[file].pieces[piece] = again
            }
        }
        guard changed, let encoded = try? CompactCoder.encode(decoded) else { return false }
        content = encoded
        return true
    }

    @Test(arguments: [nil, "a secret the forger chose, not the run's one at all"])
    func aForgedPieceSnapshotOrPartialIsRefused(forgerKey: String?) throws {
        let data = try Self.data("forged")
        let work = try TestFiles.temporaryDirectory("forged-work")
        let args = arguments(data, out: work + "/out")
        try FileManager.default.createDirectory(atPath: work + "/decoded", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: work + "/parts", withIntermediateDirectories: true)
        #expect(try runTool(["decode", "--list", work + "/files.txt"] + args).status == 0)
        let files = try TestFiles.read(work + "/files.txt").split(separator: "\n").flatMap {
            ["--file", String($0.split(separator: "\t")[1])]
        }
        let piece = work + "/decoded/all.decoded"
        #expect(try runTool(["decode", "--decoded", piece] + files + args).status == 0)
        let snapshot = work + "/s.snapshot"
        let made = try runTool(["snapshot", "--snapshot", snapshot, "--decoded", work + "/decoded"] + args)
        try #require(made.status == 0, "\(made.stderr)")
        let partial = work + "/parts/all.partial"
        let costFiles = try FileManager.default.contentsOfDirectory(atPath: data + "/costs").sorted().flatMap {
            ["--file", $0]
        }
        #expect(try runTool(["partial", "--snapshot", snapshot, "--partial", partial] + costFiles + args).status == 0)
        #expect(try runTool(["merge", "--snapshot", snapshot, "--partials", work + "/parts"] + args).status == 0)

        // A piece edited after decode: every euro price made dollars.
        try Self.forge(piece, macKey: forgerKey, Self.euroToDollarInPieces)
        let fromPiece = try runTool(["snapshot", "--snapshot", work + "/again.snapshot", "--decoded", work + "/decoded"] + args)
        #expect(fromPiece.status == 1, "\(fromPiece.stderr)")
        #expect(fromPiece.stderr.contains("all.decoded") && fromPiece.stderr.contains("not authenticated"), "\(fromPiece.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work + "/again.snapshot"))

        // A partial edited: refused by the merge, which writes nothing.
        try Self.forge(partial, macKey: forgerKey, Self.euroToDollar)
        let merged = try runTool(["merge", "--snapshot", snapshot, "--partials", work + "/parts"] + args)
        #expect(merged.status == 1, "\(merged.stderr)")
        #expect(merged.stderr.contains("all.partial") && merged.stderr.contains("not authenticated"), "\(merged.stderr)")

        // A snapshot edited: refused by the next step.
        try Self.forge(snapshot, macKey: forgerKey, Self.euroToDollar)
        let fromSnapshot = try runTool(
            ["partial", "--snapshot", snapshot, "--partial", work + "/other.partial"] + costFiles + args)
        #expect(fromSnapshot.status == 1, "\(fromSnapshot.stderr)")
        #expect(fromSnapshot.stderr.contains("not authenticated"), "\(fromSnapshot.stderr)")
    }

    @Test func aStepWithoutTheSecretSaysWhatToDo() throws {
        let data = try Self.data("nosecret")
        let work = try TestFiles.temporaryDirectory("nosecret-work")
        let run = try runTool(
            ["snapshot", "--snapshot", work + "/s.snapshot"] + arguments(data, out: work + "/out"),
            environment: ["REFUND_COST_STEP_SECRET": ""])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("REFUND_COST_STEP_SECRET") && run.stderr.contains("openssl rand -hex 32"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work + "/s.snapshot"))
    }

    @Test func anAppStoreFileRewrittenToItsSizeAfterDecodeIsRefused() throws {
        let data = try Self.data("rewritten")
        let work = try TestFiles.temporaryDirectory("rewritten-work")
        let args = arguments(data, out: work + "/out")
        let october = data + "/notifications/2026-10.jsonl"
        let decoded = work + "/decoded"
        try FileManager.default.createDirectory(atPath: decoded, withIntermediateDirectories: true)
        #expect(try runTool(["decode", "--decoded", decoded + "/g.decoded", "--file", october] + args).status == 0)
        let others =
            try FileManager.default.contentsOfDirectory(atPath: data + "/notifications").sorted()
            .map { data + "/notifications/" + $0 }.filter { $0 != october }
            + [data + "/transactions/history.jsonl"]
        #expect(
            try runTool(["decode", "--decoded", decoded + "/h.decoded"] + others.flatMap { ["--file", $0] } + args).status == 0)
        // One line replaced by another of the same length, the time of the bytes set back as it was.
        let before = try FileManager.default.attributesOfItem(atPath: october)[.modificationDate] as? Date
        var lines = try TestFiles.read(october).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var pair: (Int, Int)?
        var byLength: [Int: Int] = [:]
        for (index, line) in lines.enumerated() where !line.isEmpty {
            if let other = byLength[line.utf8.count], lines[other] != line {
                pair = (other, index)
                break
            }
            byLength[line.utf8.count] = index
        }
        let (a, b) = try #require(pair, "two lines of one length")
        lines.swapAt(a, b)
        let size = FileSystem.fileSize(october)
        try TestFiles.write(lines.joined(separator: "\n"), to: october)
        #expect(FileSystem.fileSize(october) == size)
        if let before { try FileManager.default.setAttributes([.modificationDate: before], ofItemAtPath: october) }
        let run = try runTool(["snapshot", "--snapshot", work + "/s.snapshot", "--decoded", decoded] + args)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("2026-10.jsonl") && run.stderr.contains("decoded it (its size, its inode"), "\(run.stderr)")
    }
}
