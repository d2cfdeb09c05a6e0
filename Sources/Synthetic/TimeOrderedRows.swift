import Support

/// Cost rows made account by account, given back in the order they were spent: each row is
/// spilled to a file of its day as it is made, and each day read back and sorted, so memory
/// holds a day's rows, never the data set's.
///
/// A server appends cost rows as they are spent, and `generate --hold-after` cuts files where
/// a time falls: the files must be in time order (rows of one time in the order they were made).
final class TimeOrderedRows {
    private struct Bucket: Hashable {
        var target: String
        var day: Int64
    }

    private let folder: String
    private var buffers: [Bucket: [UInt8]] = [:]
    private var spilled: Set<Bucket> = []
    private var days: [String: Set<Int64>] = [:]
    private static let spillAt = 256 * 1024

    init() throws {
        folder = try FileSystem.temporaryDirectory(prefix: "refund-cost-generate-rows")
    }

    deinit {
        try? FileSystem.removeTree(folder)
    }

    /// A row of `target` spent at `at`: its line, with its line feed.
    func add(_ line: [UInt8], target: String, at: Int64) throws {
        let bucket = Bucket(target: target, day: Timestamp(milliseconds: at).dayNumber)
        days[target, default: []].insert(bucket.day)
        var buffer = buffers.removeValue(forKey: bucket) ?? []
        // A record: the time (8 bytes), the line's length (4 bytes), the line.
        withUnsafeBytes(of: at.littleEndian) { buffer.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(line.count).littleEndian) { buffer.append(contentsOf: $0) }
        buffer.append(contentsOf: line)
        if buffer.count >= Self.spillAt {
            try spill(buffer, bucket)
            buffer.removeAll(keepingCapacity: true)
        }
        buffers[bucket] = buffer
    }

    /// The rows of `target`, by time, those of one time in the order they were added.
    func drain(_ target: String, into body: ([UInt8], Int64) throws -> Void) throws {
        for day in (days[target] ?? []).sorted() {
            let bucket = Bucket(target: target, day: day)
            var bytes = spilled.contains(bucket) ? try FileDescriptor.openForReading(path(bucket)).readAll() : []
            bytes += buffers.removeValue(forKey: bucket) ?? []
            var records: [(at: Int64, range: Range<Int>)] = []
            var offset = 0
            while offset + 12 <= bytes.count {
                let at = bytes[offset..<offset + 8].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
                let length = bytes[offset + 8..<offset + 12].reversed().reduce(0) { $0 << 8 | Int($1) }
                records.append((at, offset + 12..<offset + 12 + length))
                offset += 12 + length
            }
            let order = records.indices.sorted { (records[$0].at, $0) < (records[$1].at, $1) }
            for index in order { try body(Array(bytes[records[index].range]), records[index].at) }
        }
    }

    private func path(_ bucket: Bucket) -> String {
        folder + "/" + bucket.target + "-\(bucket.day)"
    }

    private func spill(_ bytes: [UInt8], _ bucket: Bucket) throws {
        let file = try FileDescriptor.openForAppending(path(bucket))
        try bytes.withUnsafeBytes { try file.write($0) }
        spilled.insert(bucket)
    }
}
