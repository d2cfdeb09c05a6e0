import Support

/// Which part of the generated data a run of `generate` writes, by when each line arrives (a
/// notification when it was received, a cost row when it was spent, a history page when its
/// last transaction was signed): what arrived after `after` (nil: from the start, every file
/// made anew) up to `upTo` (nil: everything after).
///
/// Every generated file that grows (notifications, transaction histories, cost rows) holds its
/// lines in the order they arrive, so what arrived by a time is always a first part of it: a
/// run with `--hold-after T` writes that part, and a run with `--release-after T` appends what
/// follows, as servers append to their logs. The slices appended together are the bytes of
/// one run that holds nothing back.
package struct ReleaseSlice: Sendable, Hashable {
    package var after: Int64?
    package var upTo: Int64?

    package init(after: Int64? = nil, upTo: Int64? = nil) {
        self.after = after
        self.upTo = upTo
    }

    /// A run that makes its files anew (nothing released after an earlier run's part).
    package var makesFiles: Bool { after == nil }
    package var holdsBack: Bool { after != nil || upTo != nil }

    func holds(_ key: Int64) -> (before: Bool, inside: Bool) {
        let before = after.map { key <= $0 } ?? false
        let inside = !before && (upTo.map { key <= $0 } ?? true)
        return (before, inside)
    }
}

/// A release that does not continue the files as they are: they were not written by
/// `--hold-after` (or the last release) at the time it releases after, with these options.
package struct ReleaseMismatchError: DiagnosticError {
    package var path: String
    package var size: Int?
    package var expected: Int
    package var after: Timestamp

    package var diagnostic: Diagnostic {
        Diagnostic(
            "holds \(size.map { "\($0) bytes" } ?? "nothing"), not the \(expected) bytes this data set holds up to \(after): "
                + "--release-after must be the time the last run held back after (its --hold-after), with the same --accounts, "
                + "--seed and other options; nothing was appended",
            file: path)
    }
}

/// The files a run of `generate` writes, each fed its lines in the order they arrive and
/// keeping its slice of them.
///
/// A run that makes its files writes each whole, as before. A release stages what it appends
/// and appends it only once every file holds exactly the bytes of the part before it: a
/// release after the wrong time, or over other options, changes nothing.
final class SlicedFiles {
    let slice: ReleaseSlice
    private let staging: String?
    private var files: [SlicedFile] = []
    /// Lines written or appended.
    private(set) var lines = 0

    init(slice: ReleaseSlice) throws {
        self.slice = slice
        staging = slice.makesFiles ? nil : try FileSystem.temporaryDirectory(prefix: "refund-cost-generate-release")
    }

    deinit {
        if let staging { try? FileSystem.removeTree(staging) }
    }

    /// The file at `path`, its first bytes `header` (a CSV header; none for JSON lines).
    func open(_ path: String, header: [UInt8] = []) throws -> SlicedFile {
        let file = try SlicedFile(
            path: path, header: header, slice: slice, staging: staging.map { $0 + "/\(files.count)" })
        files.append(file)
        return file
    }

    /// Makes the files, or checks every file and then appends each its part.
    func commit() throws {
        for file in files { try file.finish() }
        lines = files.reduce(0) { $0 + $1.lines }
        guard let after = slice.after else { return }
        for file in files where FileSystem.fileSize(file.path) != file.expectedBefore {
            throw ReleaseMismatchError(
                path: file.path, size: FileSystem.fileSize(file.path), expected: file.expectedBefore,
                after: Timestamp(milliseconds: after))
        }
        for file in files { try file.appendStaged() }
    }
}

/// One generated file: lines given in the order they arrive, each kept, counted as before the
/// slice, or held back.
final class SlicedFile {
    let path: String
    private let slice: ReleaseSlice
    private let writer: AtomicFileWriter
    private let staged: String?
    private var lastKey = Int64.min
    /// Bytes of the header and the lines before the slice: the size the file has before a release.
    private(set) var expectedBefore: Int
    private(set) var lines = 0

    fileprivate init(path: String, header: [UInt8], slice: ReleaseSlice, staging: String?) throws {
        self.path = path
        self.slice = slice
        staged = staging
        writer = try AtomicFileWriter(path: staging ?? path)
        expectedBefore = header.count
        if slice.makesFiles { try writer.append(header) }
    }

    /// A line (with its line feed) that arrives at `key`, after every line given before.
    func append(_ line: [UInt8], at key: Int64) throws {
        precondition(key >= lastKey, "\(path): lines are given in the order they arrive")
        lastKey = key
        let (before, inside) = slice.holds(key)
        if before { expectedBefore += line.count }
        guard inside else { return }
        lines += 1
        writer.buffer.append(contentsOf: line)
        try writer.flushIfFull()
    }

    fileprivate func finish() throws { try writer.commit() }

    /// Appends the staged part to the file, flushed.
    fileprivate func appendStaged() throws {
        guard let staged else { return }
        let source = try FileDescriptor.openForReading(staged)
        let target = try FileDescriptor.openForAppending(path)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while true {
            let read = try buffer.withUnsafeMutableBytes { try source.read(into: $0, at: offset) }
            guard read > 0 else { break }
            try buffer.withUnsafeBytes { try target.write(UnsafeRawBufferPointer(rebasing: $0[..<read])) }
            offset += read
        }
        try target.synchronize()
    }
}
