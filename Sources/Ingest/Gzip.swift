internal import CZlib
import Support

/// gzip through zlib, the one wrapper of it: whole buffers for the tool's own files
/// (`PackedFile`), and `Inflater` for inputs read as a stream (`InputStream`).
enum Gzip {
    /// `bytes` gzipped whole, for a file the tool writes for itself.
    static func compress(_ bytes: [UInt8], name: String) throws -> [UInt8] {
        var stream = z_stream()
        // 15 + 16: a 32 KiB window and a gzip header, so `gunzip` can read the content too.
        guard
            deflateInit2_(
                &stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw PackedFileError(path: name, problem: "cannot start zlib") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw PackedFileError(path: name, problem: "zlib could not compress (\(status))") }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// A whole gzip buffer (one of the tool's own files), through the same `Inflater` inputs use.
    static func decompress(_ bytes: [UInt8], name: String) throws -> [UInt8] {
        let inflater = try Inflater(path: name)
        var offset = 0
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        do {
            while true {
                let produced = try chunk.withUnsafeMutableBytes { out in
                    try inflater.inflate(into: out) { input in
                        let count = min(input.count, bytes.count - offset)
                        bytes.withUnsafeBytes { source in
                            input.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + count]))
                        }
                        offset += count
                        return count
                    }
                }
                if produced == 0 { break }
                output.append(contentsOf: chunk.prefix(produced))
            }
        } catch is InputStreamError {
            throw PackedFileError(path: name, problem: "its content is not complete gzip data (a cut file?)")
        }
        return output
    }

    /// A gzip stream decompressed with zlib; concatenated members (as `cat a.gz b.gz` makes) are
    /// read one after the other, as gunzip does.
    final class Inflater {
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
        func inflate(into buffer: UnsafeMutableRawBufferPointer, fill: (UnsafeMutableRawBufferPointer) throws -> Int) throws
            -> Int
        {
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
                        throw InputStreamError.corrupt(
                            file: path, detail: "the gzip data ends before its end marker (a cut file?)")
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
}
