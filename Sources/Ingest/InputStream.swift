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
    private let gzip: GzipInflater?
    private let onStored: (UnsafeRawBufferPointer) -> Void

    package init(path: String, onStored: @escaping (UnsafeRawBufferPointer) -> Void = { _ in }) throws {
        self.path = path
        file = try FileDescriptor.openForReading(path)
        gzip = InputStream.isCompressed(path) ? try GzipInflater(path: path) : nil
        self.onStored = onStored
    }

    /// True for a name ending in `.gz`, any case.
    package static func isCompressed(_ path: String) -> Bool { path.lowercased().hasSuffix(".gz") }

    /// The name without a `.gz` ending: what the content is (`costs.csv`).
    package static func baseName(_ path: String) -> String {
        isCompressed(path) ? String(path.dropLast(3)) : path
    }

    /// Reads up to `buffer.count` bytes of content; 0 at the end.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let gzip else {
            let count = try file.read(into: buffer)
            if count > 0 { onStored(UnsafeRawBufferPointer(rebasing: buffer[..<count])) }
            return count
        }
        return try gzip.inflate(into: buffer) { stored in
            let count = try file.read(into: stored)
            if count > 0 { onStored(UnsafeRawBufferPointer(rebasing: stored[..<count])) }
            return count
        }
    }

    /// Every line of a text file (JSON Lines), plain or gzip: see `LineReader`.
    package static func readLines(
        path: String, onBlock: @escaping (UnsafeRawBufferPointer) -> Void = { _ in },
        _ body: (_ line: Int, _ bytes: UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let stream = try InputStream(path: path, onStored: onBlock)
        try LineReader.read(stream, body)
    }
}

/// A gzip stream decompressed with zlib; concatenated members (as `cat a.gz b.gz` makes) are
/// read one after the other, as gunzip does.
final class GzipInflater {
    private let path: String
    private var stream = z_stream()
    private let input: UnsafeMutableRawBufferPointer
    private var inputEnded = false
    private var memberEnded = false

    init(path: String) throws {
        self.path = path
        input = .allocate(byteCount: 1 << 18, alignment: 16)
        // 15 + 32: a window of 32 KiB, and a gzip or zlib header detected on its own.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            input.deallocate()
            throw InputStreamError.corrupt(file: path, detail: "cannot start zlib")
        }
    }

    deinit {
        inflateEnd(&stream)
        input.deallocate()
    }

    /// Decompresses into `buffer`, reading stored bytes with `fill` when zlib needs more.
    func inflate(into buffer: UnsafeMutableRawBufferPointer, fill: (UnsafeMutableRawBufferPointer) throws -> Int) throws -> Int {
        guard let out = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self), buffer.count > 0 else { return 0 }
        stream.next_out = out
        stream.avail_out = uInt(buffer.count)
        while stream.avail_out > 0 {
            if stream.avail_in == 0 && !inputEnded {
                let count = try fill(input)
                if count == 0 { inputEnded = true }
                stream.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(count)
            }
            if stream.avail_in == 0 && inputEnded {
                guard memberEnded || stream.total_in == 0 else {
                    throw InputStreamError.corrupt(file: path, detail: "the gzip data ends before its end marker (a cut file?)")
                }
                break
            }
            if memberEnded {
                // Another member follows the one that ended, and starts as every gzip member does.
                if let next = stream.next_in, next[0] != 0x1F || (stream.avail_in > 1 && next[1] != 0x8B) {
                    throw InputStreamError.corrupt(
                        file: path,
                        detail:
                            "bytes follow the end of the gzip data that are not another gzip member (a file appended to or padded after compression?)"
                    )
                }
                inflateReset(&stream)
                memberEnded = false
            }
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            switch status {
            case Z_OK, Z_BUF_ERROR: continue
            case Z_STREAM_END: memberEnded = true
            default:
                let detail = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw InputStreamError.corrupt(file: path, detail: "not valid gzip data: \(detail)")
            }
        }
        return buffer.count - Int(stream.avail_out)
    }
}

/// An input that cannot be read as what its name says.
package enum InputStreamError: Error, Sendable, Hashable, CustomStringConvertible {
    case corrupt(file: String, detail: String)

    package var description: String {
        switch self {
        case .corrupt(let file, let detail): "\(file): error: \(detail)"
        }
    }
}
