import Attribution
import Support

/// Request-id claims kept on disk while they are settled, read back merged by id.
///
/// Each partial's claims, sorted by id, are a run of fixed records in a folder of the run's
/// own (owner-only, removed with it). A settle then holds one partial's claims and a block of
/// each run, whatever the number of ids, instead of a table of every id.
final class ClaimRuns {
    /// One claim: the id's 128 bits, and who claimed it where; 36 bytes in a run.
    struct Claim: FixedRecord {
        var id: UInt128
        var partial: Int32
        var file: Int32
        var line: Int
        var content: UInt32

        static var size: Int { 16 + 4 + 4 + 8 + 4 }
        var key: UInt64 { UInt64(truncatingIfNeeded: id >> 64) }

        init(id: UInt128, partial: Int32, file: Int32, line: Int, content: UInt32) {
            self.id = id
            self.partial = partial
            self.file = file
            self.line = line
            self.content = content
        }

        init(loading bytes: UnsafeRawPointer) {
            func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
                T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
            }
            id = UInt128(load(0, UInt64.self)) << 64 | UInt128(load(8, UInt64.self))
            partial = load(16, Int32.self)
            file = load(20, Int32.self)
            line = Int(load(24, Int64.self))
            content = load(32, UInt32.self)
        }

        func store(to bytes: UnsafeMutableRawPointer) {
            bytes.storeBytes(of: UInt64(truncatingIfNeeded: id >> 64).littleEndian, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: UInt64(truncatingIfNeeded: id).littleEndian, toByteOffset: 8, as: UInt64.self)
            bytes.storeBytes(of: partial.littleEndian, toByteOffset: 16, as: Int32.self)
            bytes.storeBytes(of: file.littleEndian, toByteOffset: 20, as: Int32.self)
            bytes.storeBytes(of: Int64(line).littleEndian, toByteOffset: 24, as: Int64.self)
            bytes.storeBytes(of: content.littleEndian, toByteOffset: 32, as: UInt32.self)
        }

        /// By id alone: a run holds each id once.
        static func < (a: Claim, b: Claim) -> Bool { a.id < b.id }
        static func == (a: Claim, b: Claim) -> Bool { a.id == b.id }
    }

    private let folder: UsageSpillFolder
    private var runs: [String] = []

    init() throws {
        folder = try UsageSpillFolder(of: "claims")
    }

    deinit { folder.remove() }

    /// Where the runs are (`run-0`, `run-1`, ...).
    var path: String { folder.path }

    /// Writes `claims` as a run, sorted by id (an id is claimed once in a partial), sorting them
    /// in place: a partial's claims are held once, not twice.
    func add(_ claims: inout [Claim]) throws {
        guard !claims.isEmpty else { return }
        claims.sort()
        let sorted = claims
        let path = folder.path + "/run-\(runs.count)"
        let file = try FileDescriptor.create(path)
        let blockRecords = 1 << 15
        var block = [UInt8](repeating: 0, count: blockRecords * Claim.size)
        var start = 0
        while start < sorted.count {
            let end = min(sorted.count, start + blockRecords)
            block.withUnsafeMutableBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                for index in start..<end { sorted[index].store(to: base + (index - start) * Claim.size) }
            }
            try block.withUnsafeBytes { bytes in
                try file.write(UnsafeRawBufferPointer(rebasing: bytes[..<((end - start) * Claim.size)]))
            }
            start = end
        }
        runs.append(path)
    }

    /// A run's next claim, ordered by id, then by run: the claims of one id come in the order
    /// their runs were added.
    private struct Head: Comparable {
        var claim: Claim
        var run: Int

        static func < (a: Head, b: Head) -> Bool { (a.claim.id, a.run) < (b.claim.id, b.run) }
        static func == (a: Head, b: Head) -> Bool { a.claim.id == b.claim.id && a.run == b.run }
    }

    /// Every id of every run, in id order, with its claims in the order their runs were added.
    func merged(_ body: (UInt128, [Claim]) throws -> Void) throws {
        var readers = try runs.map { try RunReader(path: $0) }
        var heap = MinHeap(try readers.indices.compactMap { run in try readers[run].next().map { Head(claim: $0, run: run) } })
        var group: [Claim] = []
        while let head = heap.popMinimum() {
            if let first = group.first, first.id != head.claim.id {
                try body(first.id, group)
                group.removeAll(keepingCapacity: true)
            }
            group.append(head.claim)
            if let next = try readers[head.run].next() { heap.insert(Head(claim: next, run: head.run)) }
        }
        if let first = group.first { try body(first.id, group) }
    }
}

/// A run read back a block at a time.
private struct RunReader {
    let file: FileDescriptor
    let path: String
    var block: [UInt8]
    var filled = 0
    var at = 0
    var offset = 0

    init(path: String) throws {
        self.path = path
        file = try FileDescriptor.openForReading(path)
        block = [UInt8](repeating: 0, count: ClaimRuns.Claim.size * 4096)
    }

    /// The next claim, or nil at the run's end.
    mutating func next() throws -> ClaimRuns.Claim? {
        let size = ClaimRuns.Claim.size
        if at == filled {
            let count = try block.withUnsafeMutableBytes { try file.read(into: $0, at: offset) }
            offset += count
            filled = count
            at = 0
            guard count > 0 else { return nil }
            guard count % size == 0 else { throw ClaimRunError(path: path) }
        }
        defer { at += size }
        return block.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { preconditionFailure("a block of a run holds bytes") }
            return ClaimRuns.Claim(loading: base + at)
        }
    }
}

/// A run that ends inside a claim: the temporary folder changed under the run.
struct ClaimRunError: DiagnosticError {
    var path: String

    var diagnostic: Diagnostic {
        Diagnostic(
            "the request-id claims kept here while they are settled end inside a claim; was the temporary folder cleaned "
                + "during the run? Run the step again", file: path)
    }
}
