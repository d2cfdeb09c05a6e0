import Support

/// A byte range of a CSV file that starts at a record boundary, with the line it starts on.
package struct FilePart: Sendable, Hashable, Codable {
    package var path: String
    package var start: Int
    package var end: Int
    package var firstLine: Int

    package init(path: String, start: Int, end: Int, firstLine: Int) {
        self.path = path
        self.start = start
        self.end = end
        self.firstLine = firstLine
    }
}

/// One pass over a cost file before it is read in parallel: its SHA-256 for `run.json`, and
/// split points that are record boundaries even when quoted fields hold newlines.
///
/// A split point is the byte after a line feed with an even number of quote bytes before it:
/// in RFC 4180 quotes open and close fields and are doubled inside them, so an even count
/// means "outside any field". Blocks without a split point are only counted (line feeds and
/// quotes, with libc's memchr) and hashed; the few bytes around a split point are read one by one.
package struct FileSplitter {
    package var path: String
    package var size: Int
    package var sha256: String
    package var parts: [FilePart]
    /// The file read to plan it, as it was then (nil when it was planned from a record): a
    /// reading that must see the file planned checks it.
    package var identity: FileSystem.Identity?

    /// The SHA-256 of the first `bytes` bytes of `path`, as the planning hashes them: whether a
    /// file written to since it was planned still begins with the bytes it had.
    package static func digest(_ path: String, bytes: Int) throws -> String {
        let file = try FileDescriptor.openForReading(path)
        let hasher = SHA256()
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: CSVReader.blockSize, alignment: 64)
        defer { block.deallocate() }
        var offset = 0
        while offset < bytes {
            let count = try file.read(
                into: UnsafeMutableRawBufferPointer(rebasing: block.prefix(bytes - offset)), at: offset)
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: block[..<count]))
            offset += count
        }
        return hasher.finish()
    }

    /// A file already split: its size, its checksum (empty when it is not needed) and its parts.
    package init(path: String, size: Int, sha256: String, parts: [FilePart]) {
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.parts = parts
    }

    /// Exactly `count` pieces for the distributed steps: piece K starts at the first record
    /// boundary at or after K/count of the file, so a piece may be empty (a record longer than a
    /// piece, or a file read whole: gzip and JSON lines are one piece and empty ones after it).
    ///
    /// `records` says where a record may end: after a line feed outside quotes (CSV), after any
    /// line feed (JSON lines, where a line feed inside a string is escaped), or only at the end
    /// (a file read whole).
    package static func pieces(path: String, count: Int, records: Records) throws -> FileSplitter {
        let cuttable = records != .whole && !InputStream.isCompressed(path)
        var split = try FileSplitter(
            path: path, parts: cuttable ? count : 1, keepingEmpty: true, quotesMatter: records == .csvRecords)
        while split.parts.count < count {
            split.parts.append(FilePart(path: path, start: split.size, end: split.size, firstLine: 0))
        }
        return split
    }

    /// Where the records of a file to cut may end.
    package enum Records: Sendable {
        /// After a line feed with an even number of quote bytes before it.
        case csvRecords
        /// After any line feed.
        case lines
        /// Nowhere before the end: the file is one piece.
        case whole
    }

    /// Splits `path` into about `wanted` parts at record boundaries.
    ///
    /// With `keepingEmpty`, every target gives a part, even one starting where the one before it
    /// does, or at the end of the file: `wanted` parts, always. Without `quotesMatter`, every line
    /// feed ends a record.
    package init(path: String, parts wanted: Int, keepingEmpty: Bool = false, quotesMatter: Bool = true) throws {
        self.path = path
        let file = try FileDescriptor.openForReading(path)
        identity = FileSystem.identity(path)
        let hasher = SHA256()
        let blockSize = CSVReader.blockSize
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 64)
        defer { block.deallocate() }
        let total = FileSystem.fileSize(path) ?? 0
        // A gzip file is read whole, decompressed as a stream: one part, hashed as stored.
        let count = InputStream.isCompressed(path) ? 1 : wanted
        var targets = (1..<max(1, count)).map { total * $0 / max(1, count) }.reversed().map { $0 }
        var offset = 0
        var lineFeeds = 0
        var quotes = 0
        var boundaries: [(offset: Int, line: Int)] = [(0, 1)]
        while true {
            let count = try file.read(into: block, at: offset)
            if count == 0 { break }
            let bytes = UnsafeRawBufferPointer(rebasing: block[..<count])
            hasher.update(bytes)
            if let target = targets.last, target < offset + count, let base = bytes.baseAddress {
                // Walk this block byte by byte from the first target in it.
                for index in 0..<count {
                    let byte = base.load(fromByteOffset: index, as: UInt8.self)
                    if quotesMatter && byte == UInt8(ascii: "\"") { quotes += 1 }
                    guard byte == 0x0A else { continue }
                    lineFeeds += 1
                    if let next = targets.last, offset + index >= next, quotes % 2 == 0 {
                        boundaries.append((offset + index + 1, lineFeeds + 1))
                        targets.removeLast()
                        while let later = targets.last, later <= offset + index {
                            if keepingEmpty { boundaries.append((offset + index + 1, lineFeeds + 1)) }
                            targets.removeLast()
                        }
                    }
                }
            } else if let base = bytes.baseAddress {
                lineFeeds += countLineFeeds(base, count)
                if quotesMatter { quotes += countByte(base, count, UInt8(ascii: "\"")) }
            }
            offset += count
        }
        size = offset
        sha256 = hasher.finish()
        if keepingEmpty {
            // Targets past the last record boundary start at the end.
            boundaries += targets.map { _ in (offset, lineFeeds + 1) }
        }
        var parts: [FilePart] = []
        for (index, boundary) in boundaries.enumerated() where keepingEmpty || boundary.offset < max(offset, 1) || index == 0 {
            let end = index + 1 < boundaries.count ? boundaries[index + 1].offset : offset
            parts.append(FilePart(path: path, start: boundary.offset, end: end, firstLine: boundary.line))
        }
        self.parts = parts
    }
}
