import Ingest
import Support
import Synchronization

/// The request ids of the usage files counted on disk before their rows are read, so that the
/// registry of the reading holds only the ids that come more than once.
///
/// A registry that meets every id keeps about 15 bytes a distinct id until the reading ends
/// (62 MB at the 3.9 million ids of 100,000 accounts, 620 MB at ten times that). The census
/// writes 8 bytes an id to files of the system's temporary folder instead, spread over
/// partitions by a hash of the id, then works out each partition alone, one at a time on each
/// thread: what it finds is every id written more than once. It keeps 64 bits of each id's
/// keyed hash (the registry's key): two ids alike in them are both kept, which only adds them
/// to the registry. The registry then answers every other id as a first claim, as it would
/// have: the reading is the same, row for row.
///
/// The files have no name from the moment they are made: the space they take goes back to the
/// disk when the census goes, or the process ends however it ends.
final class RequestCensus: Sendable {
    /// Bytes of usage files a partition covers, about: at 80 bytes a row, 800,000 ids, 6.4 MB
    /// to sort.
    static let bytesPerPartition = 64 << 20
    static let mostPartitions = 256
    /// Ids a thread gathers for a partition before writing them (32 KB).
    static let bufferedIDs = 4096

    let hash: SipHash
    private let partitions: [Partition]

    /// A lock cannot live in an array by value: each partition's file is an object holding one.
    private final class Partition: Sendable {
        let file: Mutex<FileDescriptor>

        init(_ file: sending FileDescriptor) {
            self.file = Mutex(file)
        }
    }

    /// A census of ids hashed with `hash`, in partitions for `bytes` of usage files, its files
    /// made in `temporaryFolder`.
    init(hash: SipHash, bytes: Int, temporaryFolder: String = FileSystem.temporaryFolder) throws {
        self.hash = hash
        var count = 1
        while count < RequestCensus.mostPartitions && count * RequestCensus.bytesPerPartition < bytes { count *= 2 }
        do {
            partitions = try (0..<count).map { _ in Partition(try FileDescriptor.createUnnamed(in: temporaryFolder)) }
        } catch let error as SystemError {
            throw SystemError(
                operation: error.operation, path: error.path, code: error.code,
                explanation: "\(error.reason); the request ids of the cost files are noted in the temporary folder "
                    + "(TMPDIR, else /tmp) while the rows are read: point TMPDIR at a folder you can write")
        }
    }

    var partitionCount: Int { partitions.count }

    /// The ids one thread noted and has not written yet, by partition.
    struct Pending: Sendable {
        fileprivate var keys: [[UInt64]]
    }

    func pending() -> Pending {
        Pending(keys: Array(repeating: [], count: partitions.count))
    }

    /// Notes one id (its bytes as the registry hashes them).
    func note(_ requestID: UnsafeRawBufferPointer, in pending: inout Pending) throws {
        let entry = RequestEntry(id: hash.hash128(requestID), content: 0)
        let partition = Int(entry.route) & (partitions.count - 1)
        pending.keys[partition].append(entry.key)
        if pending.keys[partition].count >= RequestCensus.bufferedIDs { try write(partition, of: &pending) }
    }

    /// Writes what `pending` holds.
    func write(_ pending: inout Pending) throws {
        for partition in pending.keys.indices { try write(partition, of: &pending) }
    }

    private func write(_ partition: Int, of pending: inout Pending) throws {
        guard !pending.keys[partition].isEmpty else { return }
        do {
            try partitions[partition].file.withLock { file in
                try pending.keys[partition].withUnsafeBytes { try file.write($0) }
            }
        } catch let error as SystemError where error.diskIsFull {
            throw SystemError(
                operation: error.operation, path: error.path, code: error.code,
                explanation: "the disk is full: the request ids of the cost files are noted in the temporary folder while "
                    + "the rows are read (8 bytes an id); free space there, or point TMPDIR at a disk with room")
        }
        pending.keys[partition].removeAll(keepingCapacity: true)
    }

    /// How many ids were noted and written, repeats included.
    func notedCount() throws -> Int {
        try partitions.reduce(0) { total, partition in
            total + (try partition.file.withLock { try $0.size() }) / MemoryLayout<UInt64>.stride
        }
    }

    /// The keys noted more than once, each partition read and sorted on its own, `threads` at a
    /// time.
    func repeatedKeys(threads: Int) throws -> Set<UInt64> {
        let found = try Parallel.map(partitions.count, threads: threads) { partition in
            try partitions[partition].file.withLock { file in
                let size = try file.size()
                let cut = CensusCutError(path: file.path)
                guard size % MemoryLayout<UInt64>.stride == 0 else { throw cut }
                var keys = [UInt64](repeating: 0, count: size / MemoryLayout<UInt64>.stride)
                let read = try keys.withUnsafeMutableBytes { buffer in
                    var filled = 0
                    while filled < buffer.count {
                        let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), at: filled)
                        if count == 0 { break }
                        filled += count
                    }
                    return filled
                }
                guard read == size else { throw cut }
                keys.sort()
                var repeated: [UInt64] = []
                for index in keys.indices.dropFirst() where keys[index] == keys[index - 1] && repeated.last != keys[index] {
                    repeated.append(keys[index])
                }
                return repeated
            }
        }
        return Set(found.joined())
    }

    /// Cuts a partition's file to `length` bytes, as a disk that lost its end would (a test's way
    /// to show it is refused: nothing else reaches the file).
    func cutPartition(_ partition: Int, to length: Int) throws {
        try partitions[partition].file.withLock { try $0.truncate(to: length) }
    }
}

/// A partition of the census that ends inside an id: the disk lost part of what was written.
struct CensusCutError: DiagnosticError {
    var path: String
    var diagnostic: Diagnostic {
        Diagnostic(
            "the request ids noted in the temporary folder (TMPDIR) while the cost files are read end inside an id: "
                + "the disk did not keep what was written; run the report again, with TMPDIR on another disk if it happens again",
            file: path)
    }
}
