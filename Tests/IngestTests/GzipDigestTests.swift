import Testing

@testable import Ingest
@testable import Support

/// The digest of a packed file's content, inflated a chunk at a time, is the digest of the
/// content itself: what settle names a snapshot by without holding it decoded.
@Suite("Digest of gzipped content")
struct GzipDigestTests {
    @Test(arguments: [0, 1, (1 << 20) - 1, 1 << 20, 3 * (1 << 20) + 17])
    func theDigestOfTheContentAsInflatedInChunks(bytes: Int) throws {
        var random = SeededRandom(seed: UInt64(bytes))
        // Half random bytes, half a repeated pattern: compressible enough to span many chunks.
        let content = (0..<bytes).map { $0 % 2 == 0 ? UInt8(truncatingIfNeeded: random.next()) : UInt8($0 % 7) }
        let compressed = try Gzip.compress(content, name: "content")
        #expect(try Gzip.digestOfContent(compressed, name: "content") == content.withUnsafeBytes(SHA256.digest))
        #expect(try Gzip.decompress(compressed, name: "content") == content)
    }

    @Test func aCutStreamIsRefused() throws {
        let compressed = try Gzip.compress(Array(repeating: 7, count: 100_000), name: "content")
        #expect(throws: PackedFileError.self) { try Gzip.digestOfContent(Array(compressed.dropLast(9)), name: "content") }
    }
}
