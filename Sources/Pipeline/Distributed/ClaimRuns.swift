import Attribution
import Support

/// Request-id claims kept on disk while they are settled, read back merged by id.
///
/// Each partial's claims, sorted by id, are a run of fixed records in a folder of the run's
/// own (owner-only, removed with it). A settle then holds one partial's claims and a block of
/// each run, whatever the number of ids, instead of a table of every id.
final class ClaimRuns {
    /// One claim: the id's 128 bits, and who claimed it where.
    struct Claim {
        var id: UInt128
        var partial: Int32
        var file: Int32
        var line: Int
        var content: UInt32
    }

    private static let recordBytes = 16 + 4 + 4 + 8 + 4
    private let folder: UsageSpillFolder
    private var runs: [String] = []

    init() throws {
        folder = try UsageSpillFolder(of: "claims")
    }

    deinit { folder.remove() }

    /// Where the runs are (`run-0`, `run-1`, ...).
    var path: String { folder.path }

    /// Writes `claims` as a run, sorted by id (an id is claimed once in a partial).
    func add(_ claims: [Claim]) throws {
        guard !claims.isEmpty else { return }
        let sorted = claims.sorted { $0.id < $1.id }
        let path = folder.path + "/run-\(runs.count)"
        let file = try FileDescriptor.create(path)
        let blockRecords = 1 << 15
        var block = [UInt8](repeating: 0, count: blockRecords * Self.recordBytes)
        var start = 0
        while start < sorted.count {
            let end = min(sorted.count, start + blockRecords)
            block.withUnsafeMutableBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                for index in start..<end { Self.encode(sorted[index], at: base + (index - start) * Self.recordBytes) }
            }
            try block.withUnsafeBytes { bytes in
                try file.write(UnsafeRawBufferPointer(rebasing: bytes[..<((end - start) * Self.recordBytes)]))
            }
            start = end
        }
        runs.append(path)
    }

    /// Every id of every run, in id order, with its claims in the order their runs were added.
    func merged(_ body: (UInt128, [Claim]) throws -> Void) throws {
        var readers = try runs.map { try RunReader(path: $0, recordBytes: Self.recordBytes) }
        // A binary heap of the runs' next claims, by id, then by run.
        var heap: [(claim: Claim, run: Int)] = []
        func precedes(_ a: (claim: Claim, run: Int), _ b: (claim: Claim, run: Int)) -> Bool {
            (a.claim.id, a.run) < (b.claim.id, b.run)
        }
        func push(_ item: (claim: Claim, run: Int)) {
            heap.append(item)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard precedes(heap[child], heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }
        func pop() -> (claim: Claim, run: Int) {
            let top = heap[0]
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1
                    let right = left + 1
                    var least = parent
                    if left < heap.count, precedes(heap[left], heap[least]) { least = left }
                    if right < heap.count, precedes(heap[right], heap[least]) { least = right }
                    guard least != parent else { break }
                    heap.swapAt(parent, least)
                    parent = least
                }
            }
            return top
        }
        for run in readers.indices {
            if let claim = try readers[run].next(Self.decode) { push((claim, run)) }
        }
        var group: [Claim] = []
        while !heap.isEmpty {
            let (claim, run) = pop()
            if let first = group.first, first.id != claim.id {
                try body(first.id, group)
                group.removeAll(keepingCapacity: true)
            }
            group.append(claim)
            if let next = try readers[run].next(Self.decode) { push((next, run)) }
        }
        if let first = group.first { try body(first.id, group) }
    }

    private static func encode(_ claim: Claim, at base: UnsafeMutableRawPointer) {
        base.storeBytes(of: UInt64(truncatingIfNeeded: claim.id >> 64).littleEndian, toByteOffset: 0, as: UInt64.self)
        base.storeBytes(of: UInt64(truncatingIfNeeded: claim.id).littleEndian, toByteOffset: 8, as: UInt64.self)
        base.storeBytes(of: claim.partial.littleEndian, toByteOffset: 16, as: Int32.self)
        base.storeBytes(of: claim.file.littleEndian, toByteOffset: 20, as: Int32.self)
        base.storeBytes(of: Int64(claim.line).littleEndian, toByteOffset: 24, as: Int64.self)
        base.storeBytes(of: claim.content.littleEndian, toByteOffset: 32, as: UInt32.self)
    }

    private static func decode(_ record: UnsafeRawBufferPointer) -> Claim {
        func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            T(littleEndian: record.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        return Claim(
            id: UInt128(load(0, UInt64.self)) << 64 | UInt128(load(8, UInt64.self)), partial: load(16, Int32.self),
            file: load(20, Int32.self), line: Int(load(24, Int64.self)), content: load(32, UInt32.self))
    }
}

/// A run read back a block at a time.
private struct RunReader {
    let file: FileDescriptor
    let path: String
    let recordBytes: Int
    var block: [UInt8]
    var filled = 0
    var at = 0
    var offset = 0

    init(path: String, recordBytes: Int) throws {
        self.path = path
        self.recordBytes = recordBytes
        file = try FileDescriptor.openForReading(path)
        block = [UInt8](repeating: 0, count: recordBytes * 4096)
    }

    /// The next record, decoded, or nil at the run's end.
    mutating func next<T>(_ decode: (UnsafeRawBufferPointer) -> T) throws -> T? {
        if at == filled {
            let count = try block.withUnsafeMutableBytes { try file.read(into: $0, at: offset) }
            offset += count
            filled = count
            at = 0
            guard count > 0 else { return nil }
            guard count % recordBytes == 0 else { throw ClaimRunError(path: path) }
        }
        defer { at += recordBytes }
        return block.withUnsafeBytes { bytes in decode(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + recordBytes)])) }
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
