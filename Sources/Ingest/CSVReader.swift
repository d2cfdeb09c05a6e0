internal import CLibCSV
import Support

/// Reads a whole file through a `CSVParser` in 1 MiB blocks.
package enum CSVReader {
    package static let blockSize = 1 << 20

    /// Calls `body` for every record of the file, plain or gzip; `onBlock` sees each block of the
    /// file as stored (for progress and checksums).
    package static func read(
        path: String, onBlock: (UnsafeRawBufferPointer) -> Void = { _ in }, _ body: (CSVRecord) throws -> Void
    ) throws {
        try read(part: FilePart(path: path, start: 0, end: Int.max, firstLine: 1), onBlock: onBlock, body)
    }

    /// A whole file from its start to its end, never seeking: a gzip file (decompressed as it
    /// is read, it cannot be cut into parts), or a pipe.
    package static func readInOrder(
        path: String, limit: Int = .max, onBlock: (UnsafeRawBufferPointer) -> Void, _ body: (CSVRecord) throws -> Void
    ) throws {
        try withoutActuallyEscaping(onBlock) { onBlock in
            let stream = try InputStream(path: path, limit: limit, onStored: onBlock)
            let parser = CSVParser(file: path)
            let block = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 64)
            defer { block.deallocate() }
            while true {
                let count = try stream.read(into: block)
                if count == 0 { break }
                try parser.feed(UnsafeRawBufferPointer(rebasing: block[..<count]), body)
            }
            try parser.finish(body)
        }
    }

    /// The file's first record (its header), reading no further than the block that ends it:
    /// nil for a file with no record at all.
    static func firstRecord(path: String) throws -> [String]? {
        let file = try InputStream(path: path)
        let parser = CSVParser(file: path)
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 64)
        defer { block.deallocate() }
        var first: [String]?
        while first == nil {
            let count = try file.read(into: block)
            if count == 0 {
                try parser.finish { record in if first == nil { first = record.strings } }
                break
            }
            try parser.feed(UnsafeRawBufferPointer(rebasing: block[..<count])) { record in
                if first == nil { first = record.strings }
            }
        }
        return first
    }

    /// Reads one part of a file that starts and ends at record boundaries (see `FileSplitter`).
    package static func read(
        part: FilePart, onBlock: (UnsafeRawBufferPointer) -> Void = { _ in }, _ body: (CSVRecord) throws -> Void
    ) throws {
        if InputStream.isCompressed(part.path) {
            return try readInOrder(path: part.path, limit: part.end, onBlock: onBlock, body)
        }
        let file = try FileDescriptor.openForReading(part.path)
        let parser = CSVParser(file: part.path, firstLine: part.firstLine, atFileStart: part.start == 0)
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 64)
        defer { block.deallocate() }
        var offset = part.start
        while offset < part.end {
            let wanted = min(blockSize, part.end - offset)
            let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: block[..<wanted]), at: offset)
            if count == 0 { break }
            offset += count
            let bytes = UnsafeRawBufferPointer(rebasing: block[..<count])
            try parser.feed(bytes, body)
            onBlock(bytes)
        }
        try parser.finish(body)
    }
}
