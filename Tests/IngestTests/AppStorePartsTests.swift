import Foundation
import Synchronization
import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

/// Files are decoded in pieces on all cores and kept in file and line order: the pieces must
/// never show, whatever their size.
@Suite("Reading the App Store files in pieces")
struct AppStorePartsTests {
    /// A copy of the sample with lines to reject and blank lines spread through one file, read
    /// whole-ish (the default piece size), in pieces of about 2 KB (a line or two each) and of
    /// about 30 KB (several lines; the 50 KB line is longer than a piece), then the same
    /// gzipped.
    @Test func piecesOfAnySizeReadAsTheWholeFileDoes() throws {
        let root = try copyOfSample()
        let path = root + "/notifications/2026-09.jsonl"
        var lines = try TestFiles.read(path).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert("{not json", at: 2)
        lines.insert("", at: 40)
        lines.insert("{\"signedPayload\": \"a.b.c\"}\r", at: lines.count - 3)
        // A line far longer than a piece: it is read whole, wherever the pieces fall.
        lines.insert("{\"signedPayload\": \"" + String(repeating: "x", count: 50_000) + "\"}", at: 100)
        try TestFiles.write(lines.joined(separator: "\n"), to: path)

        func read(partSize: Int) throws -> (input: AppStoreInput, rejects: [Reject]) {
            let rejects = RejectLog(keepingAll: true)
            let asOf = Timestamp(milliseconds: AppStoreFixture.october + 40 * AppStoreFixture.day)
            let options = AppStoreOptions(
                asOf: asOf,
                signatures: AppStoreFixture.signatures(environment: .production, asOf: asOf, also: try testRoots(root)))
            let input = try AppStoreReader(options: options, rejects: rejects, partSize: partSize).read(InputLayout(root: root))
            return (input, rejects.all ?? [])
        }
        let whole = try read(partSize: AppStoreParts.defaultPartSize)
        #expect(whole.rejects.count == 3)
        #expect(whole.rejects.map(\.line) == [3, 101, lines.count - 3])
        #expect(whole.input.notifications.count > 1000)
        /// Pieces of about 2 KB (a line or two) and 30 KB (several lines) read as `reference` does.
        func expectPiecesRead(as reference: (input: AppStoreInput, rejects: [Reject])) throws {
            for partSize in [2000, 30_000] {
                let pieces = try read(partSize: partSize)
                #expect(pieces.rejects == reference.rejects)
                #expect(pieces.input.notifications == reference.input.notifications)
                #expect(pieces.input.transactions == reference.input.transactions)
                #expect(pieces.input.copyCounts == reference.input.copyCounts)
                #expect(pieces.input.firstRevokedCopies == reference.input.firstRevokedCopies)
                #expect(pieces.input.renewals == reference.input.renewals)
                #expect(pieces.input.counts == reference.input.counts)
                #expect(pieces.input.checksums == reference.input.checksums)
            }
        }
        try expectPiecesRead(as: whole)
        #expect(whole.input.checksums[path] == (try SHA256.file(path)))

        // Gzipped, the file is inflated block by block into the pieces instead of read where it
        // lies: the same pieces again.
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-n", path]
        try gzip.run()
        gzip.waitUntilExit()
        #expect(gzip.terminationStatus == 0)
        let zipped = try read(partSize: AppStoreParts.defaultPartSize)
        #expect(zipped.rejects.map(\.line) == [3, 101, lines.count - 3])
        #expect(zipped.input.notifications.count == whole.input.notifications.count)
        try expectPiecesRead(as: zipped)
        #expect(zipped.input.checksums[path + ".gz"] == (try SHA256.file(path + ".gz")))
    }

    /// A mapped file is cut after the last line feed within a piece's size, after the first one
    /// past it when a line is longer, and at the end when no line feed is left.
    @Test func mappedPiecesEndAfterALineFeed() {
        let bytes = Array("ab\ncd\nefgh\nij".utf8)
        bytes.withUnsafeBytes { bytes in
            #expect(AppStoreParts.pieceEnd(bytes, from: 0, size: 4) == 3)
            #expect(AppStoreParts.pieceEnd(bytes, from: 0, size: 7) == 6)
            #expect(AppStoreParts.pieceEnd(bytes, from: 3, size: 2) == 6)
            #expect(AppStoreParts.pieceEnd(bytes, from: 6, size: 2) == 11)
            #expect(AppStoreParts.pieceEnd(bytes, from: 11, size: 1) == 13)
            #expect(AppStoreParts.pieceEnd(bytes, from: 11, size: 100) == 13)
            #expect(AppStoreParts.pieceEnd(bytes, from: 0, size: 100) == 13)
        }
    }

    /// Long runs say how far they are: after every piece, the bytes and lines read so far.
    @Test func progressCountsEveryByteAndLine() throws {
        let root = try copyOfSample()
        let asOf = Timestamp(milliseconds: AppStoreFixture.october + 40 * AppStoreFixture.day)
        let options = AppStoreOptions(
            asOf: asOf, signatures: AppStoreFixture.signatures(environment: .production, asOf: asOf, also: try testRoots(root)))
        let heard = Mutex((calls: 0, bytes: 0, lines: 0))
        let layout = try InputLayout(root: root)
        let input = try AppStoreReader(options: options, rejects: RejectLog(), partSize: 100_000) { bytes, lines in
            heard.withLock { $0 = ($0.calls + 1, bytes, lines) }
        }.read(layout)
        let files = layout.notificationFiles + layout.transactionFiles
        let last = heard.withLock { $0 }
        #expect(last.calls > files.count)
        #expect(last.bytes == files.reduce(0) { $0 + (FileSystem.fileSize($1) ?? 0) })
        #expect(last.lines == input.counts.notificationLines + input.counts.historyLines)
    }
}
