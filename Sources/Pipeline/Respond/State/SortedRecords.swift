import Ingest
import Support
import Synchronization

/// A record of fixed size with a 64-bit key, as a file of them sorted holds it: ordered by key
/// first (`<`), so that all records of a key lie together.
protocol FixedRecord: Sendable, Comparable {
    /// Bytes a record takes in the file.
    static var size: Int { get }
    var key: UInt64 { get }
    init(loading bytes: UnsafeRawPointer)
    func store(to bytes: UnsafeMutableRawPointer)
}

/// A file of fixed-size records sorted by key, read in place (mapped, never loaded whole): the
/// records of one key are found by binary search, touching a few pages of a file of any size.
///
/// Every block a lookup reads is checked against the file's block sums first (`BlockCheck`), so
/// a damaged file is found, never believed.
///
/// Written whole (`SortedWriting`, a new file renamed into place), never changed in place.
///
/// Lookups of many keys (a request id a new cost row claims, for each of them) touch pages all
/// over the file; every `releaseEvery` lookups the mapping's pages are let go, so the process's
/// memory stays a few megabytes whatever the file's size (the pages stay in the system's cache).
struct SortedRecords<Record: FixedRecord>: Sendable {
    let path: String
    let mapped: MappedFile?
    private let blocks: BlockCheck
    private let lookups = LookupCount()
    private static var releaseEvery: Int { 512 }

    /// Lookups so far, shared by every thread looking up in the same file.
    private final class LookupCount: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Maps `path`, whose bytes `sums` describe (an empty file holds no record).
    init(path: String, sums: BlockSums) throws {
        self.path = path
        guard FileSystem.kind(path) == .regularFile, !FileSystem.isSymbolicLink(path) else {
            throw StateDamageError(what: "\(StateFolder.name(path)) is missing")
        }
        mapped = try MappedFile(path: path)
        let length = mapped?.bytes.count ?? 0
        guard length == sums.length, length % Record.size == 0 else {
            throw StateDamageError(what: "\(StateFolder.name(path)) is not the size its manifest says")
        }
        blocks = BlockCheck(path: path, sums: sums)
    }

    var count: Int { (mapped?.bytes.count ?? 0) / Record.size }

    /// The record at `index`, which must be below `count`, its block checked.
    func record(_ index: Int) throws -> Record {
        guard let mapped, let base = mapped.bytes.baseAddress else { preconditionFailure("a record of a file that holds none") }
        let start = index * Record.size
        try blocks.check(start..<(start + Record.size), of: mapped.bytes)
        return Record(loading: base + start)
    }

    /// Every record whose key is `key`, in file order.
    func records(_ key: UInt64) throws -> [Record] {
        if let mapped, lookups.value.wrappingAdd(1, ordering: .relaxed).newValue % Self.releaseEvery == 0 {
            mapped.release(0..<mapped.bytes.count)
        }
        var found: [Record] = []
        var index = try firstIndex(notBelow: key)
        while index < count {
            let next = try record(index)
            guard next.key == key else { break }
            found.append(next)
            index += 1
        }
        return found
    }

    /// The first record whose key is `key` or above (`count` when there is none).
    ///
    /// The keys are hashes, spread evenly: a few steps that guess where the key lies from the
    /// keys at both ends find it among a few pages (a binary search would touch twenty-five
    /// pages of a file of 40 million records); then halving, so that no spread of keys can
    /// make it slower than a binary search.
    func firstIndex(notBelow key: UInt64) throws -> Int {
        // Records before `low` are below `key`; records from `high` on are not.
        var low = 0
        var high = count
        var guesses = 4
        while low < high {
            var middle = (low + high) / 2
            if guesses > 0 {
                guesses -= 1
                let first = try record(low).key
                let last = try record(high - 1).key
                if key <= first { return low }
                if key > last { return high }
                let share = Double(key - first) / Double(last - first)
                middle = min(high - 1, low + Int(share * Double(high - 1 - low)))
            }
            if try record(middle).key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Every record, in order, each block checked as it is reached and let go behind.
    func forEach(_ body: (Record) throws -> Void) throws {
        for index in 0..<count {
            try body(try record(index))
            if index % 4096 == 4095, let mapped { mapped.release(0..<((index + 1) * Record.size)) }
        }
    }
}
