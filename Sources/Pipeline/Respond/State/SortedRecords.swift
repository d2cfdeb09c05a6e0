import Support

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
struct SortedRecords<Record: FixedRecord>: Sendable {
    let path: String
    let mapped: MappedFile?

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
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if record(middle).key < key { low = middle + 1 } else { high = middle }
        }
        var found: [Record] = []
        var index = low
        while index < count {
            let next = record(index)
            guard next.key == key else { break }
            found.append(next)
            index += 1
        }
        return found
    }

    /// Writes `records`, sorted here in place, as a new file at `path`.
    static func write(_ records: inout [Record], to path: String) throws {
        records.sort()
        try write(sorted: records, to: path)
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

    static func write(sorted records: [Record], to path: String) throws {
        let writer = try AtomicFileWriter(path: path, ownerOnly: true)
        for record in records { try append(record, to: writer) }
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
