import Ingest
import Support

/// The state's `items` file: every App Store line read, decoded and verified, one record after
/// another, each with the file and the line it came from.
///
/// Only appended: a record's offset never changes, so the sorted indexes point at it. A run
/// appends from the length the manifest names (what a killed run appended beyond it is cut off).
struct StateItems {
    /// Before each record: its length, its file (an index into the state's files) and line.
    static let headerSize = 12

    /// One record read back.
    struct Entry {
        var file: Int
        var line: Int
        var item: AppStoreItem
    }

    /// Appends records to the file at `path`, from `length` on.
    final class Writer {
        private let file: FileDescriptor
        private var buffer: [UInt8] = []
        /// The length of the file once everything given is written.
        private(set) var length: Int

        init(path: String, length: Int) throws {
            file = try FileDescriptor.openForAppending(path)
            if try file.size() != length { try file.truncate(to: length) }
            self.length = length
        }

        /// Appends one record, encoded (`CompactCoder`); returns its offset.
        func append(encoded payload: [UInt8], file index: Int, line: Int) throws -> Int {
            let offset = length
            for value in [UInt32(payload.count), UInt32(index), UInt32(line)] {
                withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
            }
            buffer.append(contentsOf: payload)
            length += StateItems.headerSize + payload.count
            if buffer.count >= 1 << 20 { try flush() }
            return offset
        }

        /// Writes out what is buffered and syncs it: the manifest may then name it.
        func finish() throws {
            try flush()
            try file.synchronize()
        }

        private func flush() throws {
            try buffer.withUnsafeBytes { try file.write($0) }
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Reads records of the file at `path` by offset.
    struct Reader {
        private let file: FileDescriptor

        init(path: String) throws {
            file = try FileDescriptor.openOwnForReading(path)
        }

        func entry(at offset: Int) throws -> Entry {
            let (file, line, payload) = try record(at: offset)
            return Entry(file: file, line: line, item: try CompactCoder.decode(AppStoreItem.self, from: payload))
        }

        /// The record at `offset`: its file, its line and its encoded value.
        func record(at offset: Int) throws -> (file: Int, line: Int, payload: [UInt8]) {
            var header = [UInt8](repeating: 0, count: StateItems.headerSize)
            guard try header.withUnsafeMutableBytes({ try file.read(into: $0, at: offset) }) == StateItems.headerSize else {
                throw StateDamageError(what: "an item record is cut short")
            }
            let (length, index, line) = header.withUnsafeBytes { raw in
                (
                    Int(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))),
                    Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self))),
                    Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
                )
            }
            var payload = [UInt8](repeating: 0, count: length)
            guard try payload.withUnsafeMutableBytes({ try file.read(into: $0, at: offset + StateItems.headerSize) }) == length
            else { throw StateDamageError(what: "an item record is cut short") }
            return (index, line, payload)
        }
    }
}

/// A state whose files do not hold what its manifest says: it is rebuilt.
struct StateDamageError: Error, CustomStringConvertible {
    var what: String
    var description: String { what }
}
