import Foundation
import Testing

@testable import Attribution
@testable import Ingest
@testable import Pipeline
@testable import Support
@testable import TestSupport

/// A packed file is read by the same types that wrote it, which its format version guarantees.
///
/// A change of a packed type's layout without a bump of its version would have a new binary
/// read an old file as something else. The layout of each packed type, made from the sample
/// (every kind of record present), is held to a committed digest with the version it was
/// recorded at: a layout that changed under the same version fails and says which to bump.
@Suite("packed formats")
struct PackedFormatTests {
    static var recordPath: String { TestFiles.packageRoot + "/Tests/Golden/packed-formats.txt" }

    /// Each packed type's kind, version and layout, from the sample.
    static func layouts() throws -> [(kind: String, version: Int, shape: String, versionName: String)] {
        let data = try copyOfSample("packed")
        let window = try #require(ReportWindow(month: "2026-10"))
        var options = try reportOptions(data: data, out: try TestFiles.temporaryDirectory("packed-out"), window: window)
        options.verifiedFilesRecord = nil
        let pipeline = Pipeline(options, rejects: RejectLog(keepingAll: true))
        let snapshot = try LedgerSnapshot(pipeline)
        let layout = try InputLayout(root: data)
        let partial = try CostPartial.run(
            Pipeline(options), try snapshot.load(), files: layout.costFiles,
            settings: PartialSettings(snapshot: "", options: options), requestKey: snapshot.requestKey, recordClaims: true)
        // A partial is written without its claims; they go to a file of their own.
        var partialAsWritten = partial
        partialAsWritten.dropClaims()
        // A piece of a split file, so that the layout holds its fields.
        let piece = FilePiece(split: "", index: 1, count: 2)
        partialAsWritten.piece = piece
        // The totals of a partial cut by account, so that the layout holds their list.
        partialAsWritten.reading.totals.touchedTransactions = TransactionSums()
        // The fields of a routing partial and of a group's partial, so that the layout holds them.
        partialAsWritten.routedTo = 2
        partialAsWritten.routedGroup = RoutedGroup(group: AccountGroup(group: 1, groups: 2), routings: [""])
        let split = try FileSplit.make(path: layout.costFiles[0], pieces: 2, records: .csvRecords)
        var decoded = try DecodedFiles(
            data: data, paths: layout.notificationFiles + layout.transactionFiles, options: options.appStore, threads: 1)
        // A file decoded in pieces, so that the layout holds its piece's fields.
        decoded.files[0].piece = piece
        let decodedPiece = try CompactCoder.decode(
            DecodedPart.self, from: try Gzip.decompress(try #require(decoded.files.first?.pieces.first), name: "piece"))
        let folder = try TestFiles.temporaryDirectory("packed-state") + "/state"
        try FileSystem.createDirectory(folder, mode: 0o700)
        var respondOptions = options
        respondOptions.data = FileSystem.resolvedPath(data)
        let reading = StateReading(folder: folder, options: respondOptions, layout: try InputLayout(root: respondOptions.data))
        let state = try reading.rebuilt(because: "the test").state
        let sums = try InputSums.read(try #require(state.inputSums), in: folder)
        return [
            (LedgerSnapshot.kind, LedgerSnapshot.version, try CodingShape.of(snapshot), "PackedVersions.ledgerSnapshot"),
            (
                GroupSnapshot.kind, GroupSnapshot.version,
                try CodingShape.of(
                    GroupSnapshot(
                        snapshot, cut: GroupSnapshot.Cut(try snapshot.load().ledger, groups: 2), sha256: "",
                        group: AccountGroup(group: 0, groups: 2))),
                "PackedVersions.groupSnapshot"
            ),
            (CostPartial.kind, CostPartial.version, try CodingShape.of(partialAsWritten), "PackedVersions.costPartial"),
            (
                PartialClaims.kind, PartialClaims.version,
                try CodingShape.of(
                    PartialClaims(
                        partial: "", snapshot: "", piece: piece,
                        files: partial.claims.map { FileClaims(file: $0.file, claims: $0.claims) },
                        seeded: partial.reading.summaries.flatMap { summary in
                            summary.claims.map { SeededClaim(entry: $0.entry, file: summary.path, line: $0.line) }
                        })),
                "PackedVersions.requestClaims"
            ),
            (
                RoutedRows.kind, RoutedRows.version,
                try CodingShape.of(RoutedRows.Head(partial: "", snapshot: "", group: AccountGroup(group: 0, groups: 2))),
                "PackedVersions.routedRows"
            ),
            (FileSplit.kind, FileSplit.version, try CodingShape.of(split), "PackedVersions.fileSplit"),
            (DecodedFiles.kind, DecodedFiles.version, try CodingShape.of(decoded), "PackedVersions.decodedFiles"),
            (
                DecodedFiles.kind + " (a piece)", DecodedFiles.version, try CodingShape.of(decodedPiece),
                "PackedVersions.decodedFiles"
            ),
            (
                StepFiles.seedsKind, StepFiles.seedsVersion,
                try CodingShape.of(
                    PartialSeeds(
                        files: partial.files, piece: piece, snapshot: "", part: .whole,
                        seeds: partial.reading.summaries.flatMap { summary in
                            summary.claims.map { SeededClaim(entry: $0.entry, file: summary.path, line: $0.line) }
                        })),
                "PackedVersions.requestSeeds"
            ),
            (
                RequestSettlement.kind, RequestSettlement.version,
                try CodingShape.of(RequestSettlement(snapshot: "", part: .whole, partials: [""])),
                "PackedVersions.requestSettlement"
            ),
            (RespondState.kind, RespondState.version, try CodingShape.of(state), "PackedVersions.respondState"),
            (InputSums.kind, InputSums.version, try CodingShape.of(sums), "PackedVersions.respondInputSums"),
        ]
    }

    @Test func aLayoutChangesOnlyWithItsVersion() throws {
        let found = try Self.layouts().map { ($0.kind, $0.version, sha256($0.shape), $0.versionName) }
        let lines = found.map { "\($0.0)\t\($0.1)\t\($0.2)" }
        if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
            try TestFiles.write(lines.joined(separator: "\n") + "\n", to: Self.recordPath)
            Issue.record(
                "RECORD_GOLDENS=1: recorded the packed formats' layouts in Tests/Golden/packed-formats.txt; review the diff")
            return
        }
        var recorded: [String: (version: Int, digest: String)] = [:]
        for line in try TestFiles.read(Self.recordPath).split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3, let version = Int(fields[1]) else { continue }
            recorded[fields[0]] = (version, fields[2])
        }
        for (kind, version, digest, versionName) in found {
            let kept = try #require(recorded[kind], "\(kind) is not in Tests/Golden/packed-formats.txt: record it")
            if kept.version == version {
                #expect(
                    kept.digest == digest,
                    "the layout of a \(kind) changed, but its version is still \(version): bump \(versionName) to \(version + 1), then record with RECORD_GOLDENS=1"
                )
            } else {
                #expect(
                    kept.digest != digest,
                    "\(versionName) is \(version) (recorded \(kept.version)) but its layout did not change: record with RECORD_GOLDENS=1"
                )
                Issue.record("\(versionName) is now \(version): record the new layout with RECORD_GOLDENS=1")
            }
        }
    }

    @Test func theShapeSeesAFieldAdded() throws {
        struct Before: Codable { var a = 1, b = "x" }
        struct After: Codable { var a = 1, b = "x", c = [UInt8(1)] }
        struct Renamed: Codable { var a = 1, d = "x" }
        #expect(try CodingShape.of(Before()) == "{a:Int,b:String}")
        #expect(try CodingShape.of(After()) == "{a:Int,b:String,c:Bytes}")
        #expect(try CodingShape.of(Renamed()) != (try CodingShape.of(Before())))
        #expect(try CodingShape.of([Before(), Before()]) == (try CodingShape.of([Before()])))
        // A dictionary's keys are values: other keys, the same shape.
        #expect(try CodingShape.of(["p": Before()]) == (try CodingShape.of(["q": Before(), "r": Before()])))
    }

    private func sha256(_ text: String) -> String {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { SHA256.digest(UnsafeRawBufferPointer($0)) }
    }
}
