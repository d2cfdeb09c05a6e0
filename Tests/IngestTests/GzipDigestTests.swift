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
}
