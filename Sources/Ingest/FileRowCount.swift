import Support

/// How many rows a file refused whole would have counted, so its reject weighs what was lost.
///
/// Lines are counted, not CSV records: a file refused for its header cannot be parsed by that
/// header, and a quoted line break is rare enough that the line count is the honest estimate.
/// The count streams blocks (a line of any length costs nothing); a file that cannot be read
/// to its end counts the lines read before the problem.
package enum FileRowCount {
    /// Lines of `path` (decompressed when gzip), less `headerLines`; at least 1, so a refused
    /// file never weighs nothing.
    package static func dataRows(_ path: String, headerLines: Int) -> Int {
        var lines = 0
        var lastByte: UInt8 = 0x0A
        do {
            let stream = try InputStream(path: path)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let count = try stream.read(into: buffer)
                if count == 0 { break }
                if let base = buffer.baseAddress { lines += countLineFeeds(base, count) }
                lastByte = buffer[count - 1]
            }
        } catch {
            // What was counted before the problem stands.
        }
        if lastByte != 0x0A { lines += 1 }
        return max(1, lines - headerLines)
    }
}
