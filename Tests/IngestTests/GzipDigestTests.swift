import Foundation
import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

/// The digest of a packed file's content, read and inflated a chunk at a time, is the digest of
/// the content itself: what settle names a snapshot by without holding it, compressed or not.
@Suite("Digest of a packed file's content")
struct GzipDigestTests {
    private func packed(_ content: [UInt8], _ label: String) throws -> String {
        let path = try TestFiles.temporaryDirectory(label) + "/file.packed"
        try PackedFile.write(content, kind: "test content", version: 1, to: path, secret: try StepSecret(testStepSecret))
        return path
    }

    @Test(arguments: [0, 1, (1 << 20) - 1, 1 << 20, 3 * (1 << 20) + 17])
    func theDigestOfTheContentAsReadAndInflatedInChunks(bytes: Int) throws {
        var random = SeededRandom(seed: UInt64(bytes))
        // Half random bytes, half a repeated pattern: compressible enough to span many chunks.
        let content = (0..<bytes).map { $0 % 2 == 0 ? UInt8(truncatingIfNeeded: random.next()) : UInt8($0 % 7) }
        let path = try packed(content, "digest-\(bytes)")
        let secret = try StepSecret(testStepSecret)
        #expect(
            try PackedFile.contentDigest(path, kind: "test content", version: 1, secret: secret)
                == content.withUnsafeBytes(SHA256.digest))
        #expect(try PackedFile.read(path, kind: "test content", version: 1, secret: secret) == content)
    }

    /// Cut short or altered, the file is refused by its MAC before a byte is inflated.
    @Test func aCutOrAlteredFileIsRefused() throws {
        let path = try packed(Array(repeating: 7, count: 100_000), "digest-cut")
        let secret = try StepSecret(testStepSecret)
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        try Data(bytes.dropLast(9)).write(to: URL(fileURLWithPath: path))
        #expect(throws: PackedFileError.self) {
            try PackedFile.contentDigest(path, kind: "test content", version: 1, secret: secret)
        }
        bytes[bytes.count - 20] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: PackedFileError.self) {
            try PackedFile.contentDigest(path, kind: "test content", version: 1, secret: secret)
        }
        #expect(throws: PackedFileError.self) {
            try PackedFile.contentDigest(path, kind: "other content", version: 1, secret: secret)
        }
    }

    /// The content pulled through `readStreaming` a chunk at a time is the content, its digest
    /// the content's, and the check it returns the header's.
    @Test(arguments: [0, 1, 3 * (1 << 20) + 17])
    func theContentPulledAChunkAtATimeIsTheContent(bytes: Int) throws {
        var random = SeededRandom(seed: UInt64(bytes) + 1)
        let content = (0..<bytes).map { $0 % 3 == 0 ? UInt8(truncatingIfNeeded: random.next()) : UInt8($0 % 5) }
        let path = try packed(content, "streamed-\(bytes)")
        let (pulled, digest, check) = try PackedFile.readStreaming(
            path, kind: "test content", version: 1, secret: try StepSecret(testStepSecret)
        ) { stream in
            #expect(stream.size == bytes)
            var pulled: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1000)
            while case let got = try chunk.withUnsafeMutableBytes({ try stream.read(into: $0) }), got > 0 {
                pulled += chunk[..<got]
            }
            return pulled
        }
        #expect(pulled == content)
        #expect(digest == content.withUnsafeBytes(SHA256.digest))
        // The check that held is the header's, as the whole file's reading returns it.
        let whole = try PackedFile.readChecked(path, kind: "test content", version: 1, secret: try StepSecret(testStepSecret))
        #expect(check.hasPrefix("hmac-sha256 ") && check == whole.check && whole.content == content)
    }

    /// A file changed in place after its MAC held, while it is pulled, is refused as changed
    /// while read, and nothing it did not hold when it was authenticated is handed out: the
    /// megabyte whose digest differs is refused before a byte of it is read.
    @Test func aFileChangedWhileItIsPulledIsRefused() throws {
        var random = SeededRandom(seed: 11)
        // Random bytes do not compress: the file is about as long as the content, 3.5 MB.
        let content = (0..<3_500_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let path = try packed(content, "streamed-changed")
        let secret = try StepSecret(testStepSecret)
        var pulled: [UInt8] = []
        let error = #expect(throws: PackedFileError.self) {
            _ = try PackedFile.readStreaming(path, kind: "test content", version: 1, secret: secret) { stream in
                var chunk = [UInt8](repeating: 0, count: 1000)
                var got = try chunk.withUnsafeMutableBytes { try stream.read(into: $0) }
                pulled += chunk[..<got]
                // A byte 2 MB in (past what the first megabyte was inflated from), written over
                // in place: the same inode, so the same open file.
                let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
                try file.seek(toOffset: 2_000_000)
                let byte = try file.read(upToCount: 1) ?? Data()
                try file.seek(toOffset: 2_000_000)
                try file.write(contentsOf: Data([byte[byte.startIndex] ^ 0x40]))
                try file.close()
                repeat {
                    got = try chunk.withUnsafeMutableBytes { try stream.read(into: $0) }
                    pulled += chunk[..<got]
                } while got > 0
                return 0
            }
        }
        #expect(error?.problem.contains("changed while it was read") == true)
        #expect(pulled.count >= 1000 && pulled.count < 2_000_000)
        #expect(pulled.elementsEqual(content.prefix(pulled.count)))
    }

    /// Written as its content comes, the file holds the MAC of its header line and its gzipped
    /// content in its header (written over a placeholder at the end), and reads back whole.
    @Test func aFileWrittenAsItsContentComesReadsBack() throws {
        let path = try TestFiles.temporaryDirectory("streamed-write") + "/file.packed"
        let secret = try StepSecret(testStepSecret)
        var random = SeededRandom(seed: 5)
        let pieces = (0..<7).map { _ in (0..<700_000).map { _ in UInt8(truncatingIfNeeded: random.next() % 16) } }
        let check = try PackedFile.write(kind: "test content", version: 1, to: path, secret: secret) { sink in
            for piece in pieces { try sink(piece) }
        }
        #expect(try PackedFile.read(path, kind: "test content", version: 1, secret: secret) == Array(pieces.joined()))
        #expect(try PackedFile.authenticate(path, kind: "test content", version: 1, secret: secret) == check)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        #expect(String(decoding: lines[0], as: UTF8.self) == "refund-cost test content 1")
        #expect(String(decoding: lines[1], as: UTF8.self) == check)
        #expect(
            check == "hmac-sha256 "
                + HMACSHA256.mac(key: secret.key, [Array("refund-cost test content 1\n".utf8), Array(lines[2])]))
    }

    /// A content that fails part way leaves no file, and an earlier file as it was.
    @Test func aContentThatFailsLeavesNoFile() throws {
        struct Failed: Error {}
        let folder = try TestFiles.temporaryDirectory("streamed-fail")
        let path = folder + "/file.packed"
        let secret = try StepSecret(testStepSecret)
        #expect(throws: Failed.self) {
            try PackedFile.write(kind: "test content", version: 1, to: path, secret: secret) { sink in
                try sink(Array(repeating: 1, count: 3 << 20))
                throw Failed()
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        try PackedFile.write(kind: "test content", version: 1, to: path, secret: secret) { try $0([1, 2, 3]) }
        #expect(throws: Failed.self) {
            try PackedFile.write(kind: "test content", version: 1, to: path, secret: secret) { _ in throw Failed() }
        }
        #expect(try PackedFile.read(path, kind: "test content", version: 1, secret: secret) == [1, 2, 3])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["file.packed"])
    }
}
