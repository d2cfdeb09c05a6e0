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
/// Written whole by `write` (a new file, then renamed into place), or `merged` with a few more
/// records in one sequential pass; never changed in place.
///
/// Lookups of many keys (a request id a new cost row claims, for each of them) touch pages all
/// over the file; every `releaseEvery` lookups the mapping's pages are let go, so the process's
/// memory stays a few megabytes whatever the file's size (the pages stay in the system's cache).
struct SortedRecords<Record: FixedRecord>: Sendable {
    let path: String
    let mapped: MappedFile?
    private let lookups = LookupCount()
    private static var releaseEvery: Int { 512 }

    /// Lookups so far, shared by every thread looking up in the same file.
    private final class LookupCount: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Maps `path` (an empty or missing file holds no record).
    init(path: String) throws {
        self.path = path
        mapped = FileSystem.kind(path) == .regularFile ? try MappedFile(path: path) : nil
        guard (mapped?.bytes.count ?? 0) % Record.size == 0 else {
            throw SortedRecordsError(path: path, problem: "its size is not a whole number of records")
        }
    }

    var count: Int { (mapped?.bytes.count ?? 0) / Record.size }

    /// The record at `index`, which must be below `count`.
    func record(_ index: Int) -> Record {
        guard let base = mapped?.bytes.baseAddress else { preconditionFailure("a record of a file that holds none") }
        return Record(loading: base + index * Record.size)
    }

    /// Every record whose key is `key`, in file order.
    func records(_ key: UInt64) -> [Record] {
        if let mapped, lookups.value.wrappingAdd(1, ordering: .relaxed).newValue % Self.releaseEvery == 0 {
            mapped.release(0..<mapped.bytes.count)
        }
        var found: [Record] = []
        var index = firstIndex(notBelow: key)
        while index < count {
            let next = record(index)
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
    func firstIndex(notBelow key: UInt64) -> Int {
        // Records before `low` are below `key`; records from `high` on are not.
        var low = 0
        var high = count
        var guesses = 4
        while low < high {
            var middle = (low + high) / 2
            if guesses > 0 {
                guesses -= 1
                let first = record(low).key
                let last = record(high - 1).key
                if key <= first { return low }
                if key > last { return high }
                let share = Double(key - first) / Double(last - first)
                middle = min(high - 1, low + Int(share * Double(high - 1 - low)))
            }
            if record(middle).key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Writes `records`, sorted here in place, as a new file at `path`.
    static func write(_ records: inout [Record], to path: String) throws {
        var runs = [records]
        records = []
        try write(runs: &runs, to: path)
    }

    /// Writes the records of every run as one new sorted file at `path`.
    ///
    /// Each run is sorted here in place, one after the other (a sort's buffer is half a run's),
    /// then the runs are merged as the file is written. Records are ordered whole, so the bytes
    /// do not depend on how the records were cut into runs.
    static func write(runs: inout [[Record]], to path: String) throws {
        for index in runs.indices { runs[index].sort() }
        let writer = try AtomicFileWriter(path: path, ownerOnly: true)
        var next = [Int](repeating: 0, count: runs.count)
        while true {
            var smallest: Int?
            for run in runs.indices where next[run] < runs[run].count {
                if let best = smallest, !(runs[run][next[run]] < runs[best][next[best]]) { continue }
                smallest = run
            }
            guard let run = smallest else { break }
            try append(runs[run][next[run]], to: writer)
            next[run] += 1
            // A run written through is let go.
            if next[run] == runs[run].count { runs[run] = [] }
        }
        try writer.commit()
    }

    /// This file's records and `more`, in order, as a new file at `path`: one pass over this file.
    func merged(with more: [Record], to path: String) throws {
        let extra = more.sorted()
        let writer = try AtomicFileWriter(path: path, ownerOnly: true)
        var next = 0
        func emit(_ record: Record) throws {
            try Self.append(record, to: writer)
        }
        for index in 0..<count {
            let mine = record(index)
            while next < extra.count, extra[next] < mine {
                try emit(extra[next])
                next += 1
            }
            try emit(mine)
            if index % 4096 == 4095 { mapped?.release(0..<((index + 1) * Record.size)) }
        }
        while next < extra.count {
            try emit(extra[next])
            next += 1
        }
        try writer.commit()
    }

    static func append(_ record: Record, to writer: AtomicFileWriter) throws {
        let start = writer.buffer.count
        writer.buffer.append(contentsOf: repeatElement(0, count: Record.size))
        writer.buffer.withUnsafeMutableBytes { bytes in
            if let base = bytes.baseAddress { record.store(to: base + start) }
        }
        try writer.flushIfFull()
    }
}

struct SortedRecordsError: DiagnosticError {
    var path: String
    var problem: String

    var diagnostic: Diagnostic { Diagnostic(problem, file: path) }
}

/// Records kept in the manifest as their bytes, as the sorted files hold them: one copy to read
/// and to write, where coding each record's fields took most of a run that found nothing new
/// (a manifest holding the 145,000 rows of three hours at a million accounts).
@propertyWrapper
struct RecordBytes<Record: FixedRecord>: Codable, Sendable {
    var wrappedValue: [Record]

    init(wrappedValue: [Record]) {
        self.wrappedValue = wrappedValue
    }

    init(from decoder: any Decoder) throws {
        let bytes = try decoder.singleValueContainer().decode([UInt8].self)
        guard bytes.count % Record.size == 0 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a whole number of records"))
        }
        wrappedValue = bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return [] }
            return (0..<bytes.count / Record.size).map { Record(loading: base + $0 * Record.size) }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var bytes = [UInt8](repeating: 0, count: wrappedValue.count * Record.size)
        bytes.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            for (index, record) in wrappedValue.enumerated() { record.store(to: base + index * Record.size) }
        }
        var container = encoder.singleValueContainer()
        try container.encode(bytes)
    }
}
