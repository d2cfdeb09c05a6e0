import Ingest
import Support

/// The usage rows that draw from pools, kept on disk between the reading of the cost files and
/// their attribution: a row's share is known only once every row of its pools has been counted,
/// and the files are read (parsed, checked, deduplicated) once.
///
/// One file per part read, in the part's row order, so the shares' file order survives any
/// number of threads. Records are fixed fields then the account, category and unit bytes;
/// memory stays one buffer whatever the number of rows.
///
/// Owned by one thread at a time (a reader's part, then an attributor's), hence unchecked.
package final class UsageSpill: @unchecked Sendable {
    package let path: String
    private let file: FileDescriptor
    /// Records not yet written, `used` bytes of `capacity`.
    private let buffer: UnsafeMutableRawPointer
    private let capacity: Int
    private var used = 0

    private static let fixedBytes = 8 + 8 + 4 + 8 + 8 + 4 + 4 + 4

    /// A spill writing `bufferBytes` at a time: a megabyte for the few spills of a reading's
    /// parts; less where there is one for each of many account groups (a partial at a million
    /// accounts spills to 38 of them at once).
    package init(path: String, bufferBytes: Int = 1 << 20) throws {
        self.path = path
        file = try FileDescriptor.create(path)
        capacity = max(4096, bufferBytes)
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    }

    deinit { buffer.deallocate() }

    package func append(_ row: CostRow) throws {
        let needed = Self.fixedBytes + row.accountID.count + row.category.count + row.unit.count
        if used + needed > capacity { try flush() }
        guard needed <= capacity else {
            // A record longer than the buffer (ids of megabytes) is written on its own.
            var bytes = [UInt8](repeating: 0, count: needed)
            bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { encode(row, at: base) } }
            try bytes.withUnsafeBytes { try file.write($0) }
            return
        }
        encode(row, at: buffer + used)
        used += needed
    }

    /// Fixed fields little-endian, then the account, category and unit bytes.
    private func encode(_ row: CostRow, at start: UnsafeMutableRawPointer) {
        var at = 0
        func put<T: FixedWidthInteger>(_ value: T) {
            start.storeBytes(of: value.littleEndian, toByteOffset: at, as: T.self)
            at += MemoryLayout<T>.size
        }
        func put(_ bytes: UnsafeRawBufferPointer) {
            if let base = bytes.baseAddress, !bytes.isEmpty { (start + at).copyMemory(from: base, byteCount: bytes.count) }
            at += bytes.count
        }
        put(row.timestamp.milliseconds)
        put(row.cost.nanos)
        put(row.currency.packed)
        put(row.quantityNanos ?? Int64.min)
        put(Int64(row.line))
        put(UInt32(row.accountID.count))
        put(UInt32(row.category.count))
        put(UInt32(row.unit.count))
        put(row.accountID)
        put(row.category)
        put(row.unit)
    }

    package func finish() throws {
        try flush()
    }

    private func flush() throws {
        try file.write(UnsafeRawBufferPointer(start: buffer, count: used))
        used = 0
    }

    /// Every row of a spill file, in the order written.
    package static func read(_ path: String, _ body: (CostRow) throws -> Void) throws {
        let file = try FileDescriptor.openForReading(path)
        var chunk = [UInt8](repeating: 0, count: 4 << 20)
        var filled = 0
        while true {
            let read = try chunk.withUnsafeMutableBytes { bytes in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...]))
            }
            filled += read
            let used = try chunk.withUnsafeBytes { bytes in try records(UnsafeRawBufferPointer(rebasing: bytes[..<filled]), body)
            }
            if read == 0 {
                guard used == filled else { throw SpillError(path: path) }
                return
            }
            chunk.withUnsafeMutableBytes { bytes in
                // The start of a record cut by the chunk's end moves to the front (regions may overlap).
                if used > 0, let base = bytes.baseAddress { base.copyMemory(from: base + used, byteCount: filled - used) }
            }
            filled -= used
            // A record longer than the chunk (ids of megabytes): room is made for it.
            if filled == chunk.count { chunk += [UInt8](repeating: 0, count: chunk.count) }
        }
    }

    /// Every record of `bytes`, which must hold whole records only (the content of a file that
    /// carried a spill between the steps of a run, already authenticated).
    package static func read(records bytes: UnsafeRawBufferPointer, _ body: (CostRow) throws -> Void) throws -> Bool {
        try records(bytes, body) == bytes.count
    }

    /// The whole records at the start of `bytes`; returns how many bytes they took.
    private static func records(_ bytes: UnsafeRawBufferPointer, _ body: (CostRow) throws -> Void) throws -> Int {
        var at = 0
        func take<T: FixedWidthInteger>(_: T.Type) -> T {
            defer { at += MemoryLayout<T>.size }
            return T(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: T.self))
        }
        while bytes.count - at >= fixedBytes {
            let start = at
            let time = take(Int64.self)
            let cost = take(Int64.self)
            let currency = take(UInt32.self)
            let quantity = take(Int64.self)
            let line = take(Int64.self)
            let lengths = (Int(take(UInt32.self)), Int(take(UInt32.self)), Int(take(UInt32.self)))
            guard bytes.count - at >= lengths.0 + lengths.1 + lengths.2 else { return start }
            func text(_ count: Int) -> UnsafeRawBufferPointer {
                defer { at += count }
                return UnsafeRawBufferPointer(rebasing: bytes[at..<(at + count)])
            }
            let account = text(lengths.0)
            let category = text(lengths.1)
            let unit = text(lengths.2)
            try body(
                CostRow(
                    timestamp: Timestamp(milliseconds: time), accountID: account, category: category,
                    cost: Money(nanos: cost), currency: CurrencyCode(packed: currency),
                    quantityNanos: quantity == Int64.min ? nil : quantity, unit: unit, line: Int(line)))
        }
        return at
    }
}

/// A spill file that ends inside a record: the disk or the folder changed under the run.
struct SpillError: DiagnosticError {
    package var path: String
    package var diagnostic: Diagnostic {
        Diagnostic(
            "the usage rows kept here for the FOCUS pools end inside a row; was the temporary folder cleaned during the run? "
                + "Run the report again", file: path)
    }
}

/// A folder of the system's temporary space for one run's spill files, removed when done.
package struct UsageSpillFolder: Sendable {
    package let path: String

    /// A new folder named `refund-cost-WHAT-RANDOM`.
    package init(of what: String = "usage") throws {
        let base = FileSystem.temporaryFolder
        var random = SystemRandomNumberGenerator()
        path = base + "/refund-cost-\(what)-\(String(random.next(), radix: 16))"
        // Its own new folder, others kept out: the spilled rows are the app's usage.
        try FileSystem.createNewDirectory(path, mode: 0o700)
    }

    package func remove() { try? FileSystem.removeTree(path) }
}
