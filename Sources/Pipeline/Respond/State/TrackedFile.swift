import Ingest
import Support

/// An input file as respond's state last read it: its identity, and how far it was read.
///
/// A file is unchanged when its identity is (size, inode and the time its inode changed) and
/// it was read to its end. It
/// grew with its earlier bytes unchanged when it is larger, the same inode, and the first and
/// the last 64 KB it had read are still the same bytes (how notification logs and daily cost
/// exports grow). Anything else is a change, which rebuilds the state.
struct TrackedFile: Sendable, Codable, Hashable {
    var path: String
    /// Bytes read: the file's length when it was looked at.
    var bytes: Int
    var identity: FileSystem.Identity
    /// SHA-256 of its first 64 KB, and of the 64 KB before `bytes`.
    var head: String
    var tail: String
    /// The bytes read end with a line feed: what follows starts a line.
    var endsLine: Bool
    /// Line feeds in the bytes read: the line the next byte starts, less one.
    var lineFeeds: Int

    static let digestSpan = 64 * 1024

    /// The file at `path` read through byte `end`.
    ///
    /// `end` is its length when it was looked at: it may have grown since. The line feeds
    /// before `known.upTo` are `known.count` when given.
    static func read(_ path: String, through end: Int, known: (count: Int, upTo: Int)? = nil) throws -> TrackedFile {
        guard let identity = FileSystem.identity(path) else { throw StateDamageError(what: "\(path) is gone") }
        let file = try FileDescriptor.openForReading(path)
        let bytes = min(end, identity.bytes)
        let (_, head) = try digest(file, from: 0, count: min(bytes, digestSpan))
        let (last, tail) = try digest(file, from: max(0, bytes - digestSpan), count: min(bytes, digestSpan))
        let counted = known.map { min($0.upTo, bytes) } ?? 0
        let lineFeeds = (known?.count ?? 0) + (try countLineFeeds(file, from: counted, to: bytes))
        return TrackedFile(
            path: path, bytes: bytes, identity: identity, head: head, tail: tail, endsLine: bytes == 0 || last.last == 0x0A,
            lineFeeds: lineFeeds)
    }

    enum Change: Equatable {
        case same
        /// Larger, its bytes read unchanged: what follows them is new.
        case grown(FileSpan)
        case changed(String)
    }

    /// What became of the file since it was read.
    func compared() throws -> Change {
        guard FileSystem.kind(path) == .regularFile, let now = FileSystem.identity(path) else { return .changed("it is gone") }
        if now == identity && now.bytes == bytes { return .same }
        guard now.inode == identity.inode, now.device == identity.device else { return .changed("another file has its name") }
        guard now.bytes >= bytes else { return .changed("it is shorter than when it was read") }
        let file = try FileDescriptor.openForReading(path)
        let (_, head) = try Self.digest(file, from: 0, count: min(bytes, Self.digestSpan))
        let (_, tail) = try Self.digest(file, from: max(0, bytes - Self.digestSpan), count: min(bytes, Self.digestSpan))
        guard head == self.head, tail == self.tail else { return .changed("its earlier bytes are not those read") }
        if now.bytes == bytes { return .same }
        guard endsLine else { return .changed("it grew inside its last line") }
        return .grown(FileSpan(start: bytes, firstLine: lineFeeds + 1, end: now.bytes))
    }

    private static func digest(_ file: FileDescriptor, from start: Int, count: Int) throws -> ([UInt8], String) {
        var buffer = [UInt8](repeating: 0, count: count)
        let read = try buffer.withUnsafeMutableBytes { try file.read(into: $0, at: start) }
        let piece = Array(buffer.prefix(read))
        return (piece, piece.withUnsafeBytes { SHA256.digest($0) })
    }

    /// Line feeds in bytes `start..<end` of the file, read in blocks.
    private static func countLineFeeds(_ file: FileDescriptor, from start: Int, to end: Int) throws -> Int {
        let block = 1 << 20
        var buffer = [UInt8](repeating: 0, count: block)
        var offset = start
        var count = 0
        while offset < end {
            let wanted = min(block, end - offset)
            let read = try buffer.withUnsafeMutableBytes { raw in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[..<wanted]), at: offset)
            }
            guard read > 0 else { break }
            count += buffer.withUnsafeBytes { raw in raw.baseAddress.map { Support.countLineFeeds($0, read) } ?? 0 }
            offset += read
        }
        return count
    }
}
