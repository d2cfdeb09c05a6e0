import Support

/// Writes a sorted file of records from sorted sources (runs in memory, runs spilled to disk,
/// sorted files already written), merged as the file is written: memory holds the sources'
/// heads, never a second copy of every record.
///
/// Returns the new file's page sums.
enum SortedWriting {
    /// Where records come from, each sorted.
    enum Source<Record: FixedRecord> {
        case memory([Record])
        case file(SortedRecords<Record>)

        var count: Int {
            switch self {
            case .memory(let records): records.count
            case .file(let file): file.count
            }
        }
    }

    /// Sorts each run in place (one after the other: a sort's buffer is half a run's), then
    /// writes them and `files` merged as one new file at `path`, keeping the records `keep`
    /// says to.
    ///
    /// The bytes do not depend on how the records were cut into runs.
    static func write<Record: FixedRecord>(
        runs: inout [[Record]], files: [SortedRecords<Record>] = [], keep: (Record) -> Bool = { _ in true },
        to path: String
    ) throws -> BlockSums {
        for index in runs.indices { runs[index].sort() }
        var sources = files.map { Source.file($0) }
        for index in runs.indices {
            sources.append(.memory(runs[index]))
            runs[index] = []
        }
        runs = []
        return try merge(sources, keep: keep, to: path)
    }

    /// The sources' records merged in order into a new file at `path`.
    static func merge<Record: FixedRecord>(
        _ sources: [Source<Record>], keep: (Record) -> Bool, to path: String
    ) throws -> BlockSums {
        let writer = try AtomicFileWriter(path: path, ownerOnly: true)
        var sums = BlockSums.Builder()
        var chunk = [UInt8](repeating: 0, count: 0)
        chunk.reserveCapacity(1 << 20)
        func flush() throws {
            sums.add(chunk)
            try writer.append(chunk)
            chunk.removeAll(keepingCapacity: true)
        }
        var heads = try sources.indices.compactMap { index -> Head<Record>? in
            sources[index].count > 0 ? Head(record: try record(sources[index], 0), source: index, next: 1) : nil
        }
        var heap = MinHeap(heads)
        heads = []
        while let smallest = heap.popMinimum() {
            if keep(smallest.record) {
                let start = chunk.count
                chunk.append(contentsOf: repeatElement(0, count: Record.size))
                chunk.withUnsafeMutableBytes { bytes in
                    if let base = bytes.baseAddress { smallest.record.store(to: base + start) }
                }
                if chunk.count >= 1 << 20 { try flush() }
            }
            let source = sources[smallest.source]
            if smallest.next < source.count {
                heap.insert(Head(record: try record(source, smallest.next), source: smallest.source, next: smallest.next + 1))
                if case .file(let file) = source, smallest.next % 4096 == 0, let mapped = file.mapped {
                    mapped.release(0..<(smallest.next * Record.size))
                }
            }
        }
        try flush()
        try writer.commit()
        return sums.finished
    }

    private static func record<Record: FixedRecord>(_ source: Source<Record>, _ index: Int) throws -> Record {
        switch source {
        case .memory(let records): records[index]
        case .file(let file): try file.record(index)
        }
    }

    /// A source's next record: ordered by the record, then by source (equal records are equal
    /// bytes, so the order between them changes nothing; it only keeps the merge deterministic).
    private struct Head<Record: FixedRecord>: Comparable {
        var record: Record
        var source: Int
        var next: Int

        static func < (a: Head, b: Head) -> Bool {
            a.record < b.record || (!(b.record < a.record) && a.source < b.source)
        }

        static func == (a: Head, b: Head) -> Bool { a.record == b.record && a.source == b.source }
    }
}

/// A binary min-heap: the smallest of the sources' heads in `log n` steps, where a scan of every
/// source was linear in their number (a rebuild at a million accounts spills dozens of runs).
struct MinHeap<Element: Comparable> {
    private var elements: [Element]

    init(_ elements: [Element]) {
        self.elements = elements
        for index in stride(from: elements.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popMinimum() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let smallest = elements.removeLast()
        if !elements.isEmpty { siftDown(0) }
        return smallest
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < elements.count, elements[left] < elements[smallest] { smallest = left }
            if right < elements.count, elements[right] < elements[smallest] { smallest = right }
            guard smallest != parent else { return }
            elements.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
