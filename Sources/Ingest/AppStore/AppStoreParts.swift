import Support

/// A piece of a notification or history file, handed out in file order and decoded on any thread.
struct AppStorePart: Sendable {
    enum Content: Sendable {
        /// Whole lines of a JSON Lines file (decompressed when the file is gzip), the first of
        /// them line `firstLine` of the file.
        case lines(PartBytes, firstLine: Int)
        /// A notification CSV export: decoded whole, from its path (a quoted field may hold a
        /// line break, so it is not cut at lines).
        case csvFile
        /// A file whose first line is UTF-16 text: refused as a whole.
        case notUTF8
    }

    var file: AppStoreFile
    var content: Content
    /// The last piece of its file: the file's SHA-256 is known.
    var endsFile: Bool
    /// The SHA-256 of the whole file, on its last piece (nil when the decoder takes it).
    var sha256: String?
}

/// A notification or history file to read, and how.
struct AppStoreFile: Sendable, Codable {
    var path: String
    var notifications: Bool
    var policy: SignaturePolicy
    /// Set when an earlier run verified these very bytes under the same settings.
    ///
    /// They are decoded without checks, and the record's counts stand for the checks; the
    /// checksum was taken to compare with the record, so it is not taken again.
    var verifiedEarlier: VerifiedFiles.Entry?
    /// Where reading starts, and the line there: 0 and 1, unless only what was appended since an
    /// earlier reading is read (a JSON Lines file as stored, at a line's start).
    var start = 0
    var firstLine = 1
    /// Where reading stops (a file as stored), nil for its end.
    ///
    /// The length the file had when it was looked at, whatever is appended meanwhile.
    var end: Int?

    var isCSV: Bool { notifications && InputStream.baseName(path).lowercased().hasSuffix(".csv") }
}

/// Hands out the notification and history files in pieces of whole lines, in file and line
/// order, taking each file's SHA-256 as its bytes go by.
///
/// Decoding a file is most of the work of reading the App Store side, and one file can hold
/// months of notifications: pieces let every core decode while only a few pieces, not whole
/// files, are held decoded at once.
package final class AppStoreParts {
    /// About this many bytes of lines a piece (a longer line makes a longer piece): small enough
    /// that a few decoded pieces weigh little, large enough that handing them out costs nothing.
    package static let defaultPartSize = 4 << 20

    private let partSize: Int
    private let files: [AppStoreFile]
    private var fileIndex = 0
    private var stream: InputStream?
    /// The file being handed out, when it is mapped (a file as stored, not gzip), and where
    /// its next piece starts.
    private var mapping: MappedFile?
    private var mappedOffset = 0
    private var hasher: SHA256?
    private var pending: [UInt8] = []
    /// Where the last whole line in `pending` ends (after its line feed); nil when none does.
    private var pendingLinesEnd: Int?
    private var nextLine = 1
    private let block: UnsafeMutableRawBufferPointer

    init(files: [AppStoreFile], partSize: Int) {
        self.files = files
        self.partSize = max(1, partSize)
        block = .allocate(byteCount: min(1 << 20, self.partSize), alignment: 16)
    }

    deinit { block.deallocate() }

    /// The next piece, nil after the last.
    func next() throws -> AppStorePart? {
        guard fileIndex < files.count else { return nil }
        let file = files[fileIndex]
        if file.isCSV {
            fileIndex += 1
            return AppStorePart(file: file, content: .csvFile, endsFile: true)
        }
        if stream == nil && mapping == nil {
            let hasher = file.verifiedEarlier == nil ? SHA256() : nil
            self.hasher = hasher
            nextLine = file.firstLine
            // A file as stored is read where it lies (one copy less than reading it into
            // buffers); a gzip file is inflated block by block, and an empty one has no pages.
            if !InputStream.isCompressed(file.path), let mapped = try MappedFile(path: file.path) {
                mapping = mapped
                mappedOffset = min(file.start, mapped.bytes.count)
            } else {
                stream = try InputStream(path: file.path) { hasher?.update($0) }
            }
        }
        if let mapping { return try nextPiece(of: file, in: mapping) }
        let ended = try fill()
        if nextLine == 1, TextEncodingCheck.isUTF16(AppStoreParts.firstLinePrefix(pending)) { return try refused(file) }
        let cut = ended ? pending.count : pendingLinesEnd ?? pending.count
        pendingLinesEnd = nil
        var lines = pending
        pending = Array(lines[cut...])
        lines.removeSubrange(cut...)
        let firstLine = nextLine
        nextLine += lines.withUnsafeBytes { $0.baseAddress.map { countLineFeeds($0, lines.count) } ?? 0 }
        return piece(of: file, .lines(PartBytes(lines), firstLine: firstLine), endsFile: ended)
    }

    /// A piece with `content`; the file's last carries its SHA-256, and the next file comes next.
    private func piece(of file: AppStoreFile, _ content: AppStorePart.Content, endsFile: Bool) -> AppStorePart {
        guard endsFile else { return AppStorePart(file: file, content: content, endsFile: false) }
        let sha256 = file.verifiedEarlier?.sha256 ?? hasher?.finish()
        finishFile()
        return AppStorePart(file: file, content: content, endsFile: true, sha256: sha256)
    }

    /// The whole file refused as UTF-16 text, in one piece.
    private func refused(_ file: AppStoreFile) throws -> AppStorePart {
        finishFile()
        return AppStorePart(file: file, content: .notUTF8, endsFile: true, sha256: try SHA256.file(file.path))
    }

    /// Reads until `pending` holds a piece's worth ending in a line feed; true at the file's end.
    ///
    /// The bytes are read straight into the piece's own storage, which starts with the part line
    /// carried over from the last piece; only a line longer than a piece goes through `block`.
    /// Only the bytes just read are searched for their last line feed, so a line of any length
    /// costs one pass.
    private func fill() throws -> Bool {
        guard let stream else { return true }
        var ended = false
        var linesEnd: Int?
        let carried = pending
        pending = try [UInt8](unsafeUninitializedCapacity: partSize + block.count) { piece, count in
            count = UnsafeMutableBufferPointer(rebasing: piece[..<carried.count]).initialize(fromContentsOf: carried)
            while count < partSize || linesEnd == nil {
                let room = min(piece.count - count, block.count)
                if room == 0 { return }
                let read = try stream.read(
                    into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: piece[count..<count + room])))
                if read == 0 {
                    ended = true
                    return
                }
                if let lastLineFeed = piece[count..<count + read].lastIndex(of: 0x0A) { linesEnd = lastLineFeed + 1 }
                count += read
            }
        }
        pendingLinesEnd = linesEnd
        if ended { return true }
        while pending.count < partSize || pendingLinesEnd == nil {
            let count = try stream.read(into: block)
            if count == 0 { return true }
            var index = count
            while index > 0 && block[index - 1] != 0x0A { index -= 1 }
            if index > 0 { pendingLinesEnd = pending.count + index }
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: block[..<count]))
        }
        return false
    }

    /// The next piece of a mapped file: about a piece's size of whole lines (a longer line makes
    /// a longer piece), its bytes hashed as they are handed out.
    private func nextPiece(of file: AppStoreFile, in mapping: MappedFile) throws -> AppStorePart {
        let bytes = UnsafeRawBufferPointer(rebasing: mapping.bytes[..<min(file.end ?? Int.max, mapping.bytes.count)])
        if mappedOffset == 0, TextEncodingCheck.isUTF16(AppStoreParts.firstLinePrefix(bytes)) { return try refused(file) }
        let start = mappedOffset
        let end = AppStoreParts.pieceEnd(bytes, from: start, size: partSize)
        let lines = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        hasher?.update(lines)
        let firstLine = nextLine
        nextLine += lines.baseAddress.map { countLineFeeds($0, lines.count) } ?? 0
        mappedOffset = end
        return piece(of: file, .lines(PartBytes(mapping, start..<end), firstLine: firstLine), endsFile: end == bytes.count)
    }

    /// Where a piece that starts at `start` ends: after the last line feed within `size` bytes,
    /// else after the first one past them, else at the end of the bytes.
    static func pieceEnd(_ bytes: UnsafeRawBufferPointer, from start: Int, size: Int) -> Int {
        let limit = min(start + size, bytes.count)
        if limit == bytes.count { return limit }
        if let last = bytes[start..<limit].lastIndex(of: 0x0A) { return last + 1 }
        return bytes[limit...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
    }

    /// Whether the App Store file at `path` may be cut at any line feed into pieces decoded apart.
    ///
    /// A JSON Lines file as stored may. A gzip stream, a notification CSV export (a quoted
    /// field may hold a line break) and UTF-16 text (refused whole) are read whole.
    package static func cutsAtLines(_ path: String, notifications: Bool) throws -> Bool {
        let file = AppStoreFile(path: path, notifications: notifications, policy: SignaturePolicy())
        guard !file.isCSV, !InputStream.isCompressed(path) else { return false }
        let start = try FileDescriptor.openForReading(path)
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 3, alignment: 1)
        defer { block.deallocate() }
        let count = try start.read(into: block, at: 0)
        return !TextEncodingCheck.isUTF16(firstLinePrefix(block[..<count]))
    }

    /// The first two bytes of a file's first line, without a carriage return that ends it.
    private static func firstLinePrefix(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var line = Array(bytes.prefix(3).prefix { $0 != 0x0A })
        if line.count < 3, line.last == 0x0D { line.removeLast() }
        return Array(line.prefix(2))
    }

    private func finishFile() {
        stream = nil
        mapping = nil
        hasher = nil
        pending = []
        pendingLinesEnd = nil
        fileIndex += 1
    }
}
