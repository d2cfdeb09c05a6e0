import Support

/// Reads a text file line by line as bytes (for JSON Lines), with 1-based line numbers.
///
/// A line may be longer than a block; a final line without `\n` counts; `\r\n` is trimmed.
enum LineReader {
    /// Reads a file, plain or gzip; `onBlock` sees the stored bytes (for checksums).
    package static func read(
        path: String, onBlock: @escaping (UnsafeRawBufferPointer) -> Void = { _ in },
        _ body: (_ line: Int, _ bytes: UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try read(try InputStream(path: path, onStored: onBlock), body)
    }

    package static func read(_ file: InputStream, _ body: (_ line: Int, _ bytes: UnsafeRawBufferPointer) throws -> Void) throws {
        let path = file.path
        var pending: [UInt8] = []
        var lineNumber = 0
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { block.deallocate() }
        func emit(_ bytes: UnsafeRawBufferPointer) throws {
            lineNumber += 1
            try deliver(bytes, lineNumber: lineNumber, path: path, body)
        }
        while true {
            let count = try file.read(into: block)
            if count == 0 { break }
            var start = 0
            let bytes = UnsafeRawBufferPointer(rebasing: block[..<count])
            while start < count, let base = bytes.baseAddress, let hit = findFirst(0x0A, in: base + start, count - start) {
                let newline = hit - base
                if pending.isEmpty {
                    try emit(UnsafeRawBufferPointer(rebasing: bytes[start..<newline]))
                } else {
                    pending.append(contentsOf: bytes[start..<newline])
                    try pending.withUnsafeBytes { try emit($0) }
                    pending.removeAll(keepingCapacity: true)
                }
                start = newline + 1
            }
            pending.append(contentsOf: bytes[start...])
        }
        if !pending.isEmpty { try pending.withUnsafeBytes { try emit($0) } }
    }

    /// Reads the lines of a piece of a file that starts at a line's start, line `firstLine`
    /// of `path`: the same lines, numbered the same, as reading the whole file would give.
    package static func read(
        _ bytes: UnsafeRawBufferPointer, firstLine: Int, path: String,
        _ body: (_ line: Int, _ bytes: UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let base = bytes.baseAddress else { return }
        var lineNumber = firstLine
        var start = 0
        while start < bytes.count {
            let end = findFirst(0x0A, in: base + start, bytes.count - start).map { $0 - base } ?? bytes.count
            try deliver(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), lineNumber: lineNumber, path: path, body)
            lineNumber += 1
            start = end + 1
        }
    }

    /// Hands one line to `body` without its `\r`; the first line of a file is refused when it is
    /// UTF-16 and loses a UTF-8 byte-order mark.
    private static func deliver(
        _ bytes: UnsafeRawBufferPointer, lineNumber: Int, path: String,
        _ body: (_ line: Int, _ bytes: UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var line = bytes
        if line.last == 0x0D { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
        if lineNumber == 1, TextEncodingCheck.isUTF16(Array(line.prefix(2))) {
            throw LineReaderError.notUTF8(file: path)
        }
        if lineNumber == 1, line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
            line = UnsafeRawBufferPointer(rebasing: line.dropFirst(3))
        }
        try body(lineNumber, line)
    }
}

extension UnsafeRawBufferPointer {
    /// True when the bytes hold nothing but spaces, tabs and carriage returns.
    var isBlank: Bool { allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }
}

/// A text file that cannot be read line by line as UTF-8.
enum LineReaderError: DiagnosticError, Sendable, Hashable {
    case notUTF8(file: String)

    package var diagnostic: Diagnostic {
        switch self {
        case .notUTF8(let file): Diagnostic(TextEncodingCheck.utf16Reason, file: file, line: 1)
        }
    }
}
