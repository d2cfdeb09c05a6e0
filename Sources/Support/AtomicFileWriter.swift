/// Writes a file under a temporary name beside its destination, in large blocks so memory
/// stays small, and renames it into place on `commit()`: a reader never sees half a file,
/// and a run that fails leaves no partial file behind.
package final class AtomicFileWriter {
    package let path: String
    private let temporaryPath: String
    private let file: FileDescriptor
    package var buffer: [UInt8] = []
    private var committed = false
    private static let flushThreshold = 1 << 20
    /// The most bytes the temporary name adds to the destination's (a process id has at most
    /// ten digits).
    package static let longestTemporarySuffix = ".partial-".utf8.count + 10

    /// With `ownerOnly`, the file is readable and writable by its owner alone (0600).
    package init(path: String, ownerOnly: Bool = false) throws(SystemError) {
        self.path = path
        temporaryPath = path + ".partial-\(FileSystem.processID)"
        file = try FileDescriptor.create(temporaryPath, mode: ownerOnly ? 0o600 : 0o644)
        buffer.reserveCapacity(AtomicFileWriter.flushThreshold + 4096)
    }

    deinit {
        if !committed { FileSystem.remove(temporaryPath) }
    }

    package func append(_ bytes: [UInt8]) throws(SystemError) {
        buffer.append(contentsOf: bytes)
        try flushIfFull()
    }

    package func append(_ text: String) throws(SystemError) {
        buffer.append(contentsOf: text.utf8)
        try flushIfFull()
    }

    /// Writes the buffer out once it is large; callers that fill `buffer` directly call this.
    package func flushIfFull() throws(SystemError) {
        if buffer.count >= AtomicFileWriter.flushThreshold { try flush() }
    }

    /// Writes `bytes` over what was appended at `offset` (a header whose content is known only
    /// at the end, given its length up front), once what is buffered is written out.
    package func overwrite(_ bytes: [UInt8], at offset: Int) throws(SystemError) {
        try flush()
        var failure: SystemError?
        bytes.withUnsafeBytes { raw in
            do throws(SystemError) { try file.write(raw, at: offset) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Flushes, syncs and renames the file into place.
    package func commit() throws(SystemError) {
        try flush()
        try file.synchronize()
        try FileSystem.rename(temporaryPath, to: path)
        committed = true
    }

    private func flush() throws(SystemError) {
        var failure: SystemError?
        buffer.withUnsafeBytes { raw in
            do throws(SystemError) { try file.write(raw) } catch { failure = error }
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw failure }
    }
}
