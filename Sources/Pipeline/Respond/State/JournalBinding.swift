import Ingest
import Support

/// The journal a state serves: where it is, which file it is (device and inode), its first
/// line, and how long it was when the state was last written.
///
/// The state holds only the requests that journal has not answered for good: with another
/// journal (a `--state` shared, a state folder copied beside another journal) or this one
/// replaced or cut short, it would let requests go unanswered, so it is rebuilt.
struct JournalBinding: Sendable, Codable, Hashable {
    var path: String
    var device: UInt64
    var inode: UInt64
    /// The CRC-64 of its first line (a new journal's line naming when it began).
    var firstLine: UInt64
    var bytes: Int

    /// The journal at `path` as it is now; nil when there is none yet.
    static func of(_ path: String) throws -> JournalBinding? {
        guard let identity = FileSystem.identity(path) else { return nil }
        return JournalBinding(
            path: FileSystem.resolvedPath(path), device: identity.device, inode: identity.inode,
            firstLine: try firstLineCRC(path), bytes: identity.bytes)
    }

    /// Why a state bound to this journal cannot serve the journal at `path`, or nil.
    func mismatch(_ path: String) throws -> String? {
        let resolved = FileSystem.resolvedPath(path)
        guard resolved == self.path else { return "it was kept for another journal (\(self.path))" }
        guard let identity = FileSystem.identity(path) else { return "the journal \(path) is gone" }
        guard identity.device == device, identity.inode == inode else { return "the journal \(path) was replaced" }
        guard identity.bytes >= bytes else { return "the journal \(path) is shorter than when the state was kept" }
        guard try Self.firstLineCRC(path) == firstLine else { return "the journal \(path) does not begin as it did" }
        return nil
    }

    private static func firstLineCRC(_ path: String) throws -> UInt64 {
        let file = try FileDescriptor.openOwnForReading(path)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let read = try buffer.withUnsafeMutableBytes { try file.read(into: $0, at: 0) }
        let line = buffer.prefix(read).prefix { $0 != 0x0A }
        return Array(line).withUnsafeBytes { Checksum.crc64($0) }
    }
}
