internal import CZlib
import Support

/// An input file read block by block: as stored, or decompressed as it is read when its name
/// ends in `.gz` (any case), without a temporary file.
///
/// The stored bytes go to `onStored` as
/// they are read, so a checksum is of the file as it lies on disk.
package final class InputStream {
    package let path: String
    private let file: FileDescriptor
    private let gzip: Gzip.Inflater?
    private let onStored: (UnsafeRawBufferPointer) -> Void
    /// Stored bytes still to read: a file is read up to the length it had when it was planned,
    /// whatever is appended meanwhile.
    private var left: Int

    package init(path: String, limit: Int = .max, onStored: @escaping (UnsafeRawBufferPointer) -> Void = { _ in }) throws {
        self.path = path
        file = try FileDescriptor.openForReading(path)
        gzip = InputStream.isCompressed(path) ? try Gzip.Inflater(path: path) : nil
        self.onStored = onStored
        left = limit
    }

    /// True for a name ending in `.gz`, any case.
    package static func isCompressed(_ path: String) -> Bool { path.lowercased().hasSuffix(".gz") }

    /// The name without a `.gz` ending: what the content is (`costs.csv`).
    package static func baseName(_ path: String) -> String {
        isCompressed(path) ? String(path.dropLast(3)) : path
    }

    /// Reads up to `buffer.count` bytes of content; 0 at the end.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let gzip else { return try readStored(into: buffer) }
        return try gzip.inflate(into: buffer) { stored in try readStored(into: stored) }
    }

    private func readStored(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(left)))
        left -= count
        if count > 0 { onStored(UnsafeRawBufferPointer(rebasing: buffer[..<count])) }
        return count
    }

    /// Every line of a text file (JSON Lines), plain or gzip: see `LineReader`.
    ///
    /// With `limit`, the file is read up to that many stored bytes.
    package static func readLines(
        path: String, limit: Int = .max, onBlock: @escaping (UnsafeRawBufferPointer) -> Void = { _ in },
        _ body: (_ line: Int, _ bytes: UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let stream = try InputStream(path: path, limit: limit, onStored: onBlock)
        try LineReader.read(stream, body)
    }
}

/// An input that cannot be read as what its name says.
enum InputStreamError: DiagnosticError, Sendable, Hashable {
    case corrupt(file: String, detail: String)

    package var diagnostic: Diagnostic {
        switch self {
        case .corrupt(let file, let detail): Diagnostic(detail, file: file)
        }
    }
}
