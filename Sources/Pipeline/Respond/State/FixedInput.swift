import Ingest
import Support

/// fx.csv or prices.csv as the cost rows were read with it: every cost depends on them.
struct FixedInput: Sendable, Codable, Hashable {
    var path: String
    var identity: FileSystem.Identity
    var crc: UInt64

    /// The file at `path` as it is now.
    static func look(_ path: String) throws -> FixedInput? {
        guard let identity = FileSystem.identity(path) else { return nil }
        let bytes = try FileDescriptor.readAll(path)
        return FixedInput(path: path, identity: identity, crc: bytes.withUnsafeBytes { Checksum.crc64($0) })
    }
}
