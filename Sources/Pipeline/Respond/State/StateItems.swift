import Ingest
import Support

/// The state's `items` file: every App Store line read, decoded and verified, one record after
/// another, each with the file and the line it came from.
///
/// Only appended: a record's offset never changes, so the sorted indexes point at it. A run
/// appends from the length the manifest names (what a killed run appended beyond it is cut
/// off), and keeps the file's block sums as it writes, so a reader checks every block it reads.
struct StateItems {
    /// Before each record: its length, its file (the state's number for it) and line.
    static let headerSize = 12

    /// One record read back.
    struct Entry {
        var file: Int
        var line: Int
        var item: AppStoreItem
    }

    /// Appends records to the file at `path`, from the end its `sums` describe.
    final class Writer {
        private let file: FileDescriptor
        private var buffer: [UInt8] = []
        private var builder: BlockSums.Builder
        /// The length of the file once everything given is written.
        private(set) var length: Int

        init(path: String, sums: BlockSums) throws {
            if FileSystem.isSymbolicLink(path) { throw StateDamageError(what: "\(StateFolder.name(path)) is a link") }
            file = try FileDescriptor.openForAppending(path)
            guard try file.linkCount() == 1 else {
                throw StateTrustError(path: path, problem: "a file of the state has another name (a hard link)")
            }
            _ = try file.makeOwnerOnly()
            let size = try file.size()
            guard size >= sums.length else {
                throw StateDamageError(what: "\(StateFolder.name(path)) is shorter than its manifest says")
            }
            if size != sums.length { try file.truncate(to: sums.length) }
            builder = BlockSums.Builder(continuing: sums)
            length = sums.length
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

        /// Writes out what is buffered and syncs it: the manifest may then name it, with these sums.
        func finish() throws -> BlockSums {
            try flush()
            try file.synchronize()
            return builder.finished
        }

        private func flush() throws {
            builder.add(buffer)
            try buffer.withUnsafeBytes { try file.write($0) }
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Reads records of the file at `path` by offset, every block read checked against `sums`.
    struct Reader {
        private let file: FileDescriptor
        private let blocks: BlockCheck

        init(path: String, sums: BlockSums) throws {
            guard FileSystem.kind(path) == .regularFile, !FileSystem.isSymbolicLink(path) else {
                throw StateDamageError(what: "\(StateFolder.name(path)) is missing")
            }
            file = try FileDescriptor.openOwnForReading(path)
            guard try file.size() >= sums.length else {
                throw StateDamageError(what: "\(StateFolder.name(path)) is shorter than its manifest says")
            }
            blocks = BlockCheck(path: path, sums: sums)
        }

        func entry(at offset: Int) throws -> Entry {
            let (file, line, payload) = try record(at: offset)
            do {
                return Entry(file: file, line: line, item: try CompactCoder.decode(AppStoreItem.self, from: payload))
            } catch {
                throw StateDamageError(what: "an item record cannot be read (\(error))")
            }
        }

        /// The record at `offset`: its file, its line and its encoded value.
        func record(at offset: Int) throws -> (file: Int, line: Int, payload: [UInt8]) {
            let header = try bytes(offset..<(offset + StateItems.headerSize))
            let (length, index, line) = header.withUnsafeBytes { raw in
                (
                    Int(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))),
                    Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self))),
                    Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
                )
            }
            let start = offset + StateItems.headerSize
            return (index, line, try bytes(start..<(start + length)))
        }

        /// Bytes `range`, the blocks that hold them checked first.
        private func bytes(_ range: Range<Int>) throws -> [UInt8] {
            try blocks.check(range) { block in
                let span = blocks.sums.range(ofBlock: block)
                return try read(span.lowerBound, span.count).withUnsafeBytes { Checksum.crc64($0) }
            }
            return try read(range.lowerBound, range.count)
        }

        private func read(_ offset: Int, _ count: Int) throws -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: count)
            guard try buffer.withUnsafeMutableBytes({ try file.read(into: $0, at: offset) }) == count else {
                throw StateDamageError(what: "an item record is cut short")
            }
            return buffer
        }
    }
}

/// A state whose files do not hold what its manifest says: it is rebuilt.
struct StateDamageError: Error, CustomStringConvertible {
    var what: String
    var description: String { what }
}
