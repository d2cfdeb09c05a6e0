// Every libc call the library makes lives here, so the rest of the code speaks Swift.
// The product runs on Linux; Glibc is the only C library it is built against.
internal import CSystem
import Glibc

/// A failed system call, with the path it was about and the errno text.
package struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    package var operation: String
    package var path: String
    package var code: Int32
    /// What to say instead of the system's words for `code`, when the tool refused on its own
    /// grounds (a pinned file changed: `PinnedFiles`).
    package var explanation: String? = nil

    package init(operation: String, path: String, code: Int32, explanation: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.explanation = explanation
    }

    /// True when the disk (or the owner's quota on it) had no room for what was written.
    package var diskIsFull: Bool { code == ENOSPC || code == EDQUOT }

    /// `path: cannot open for reading: No such file or directory`: a phrase other errors quote.
    package var description: String { "\(path): cannot \(operation): \(reason)" }

    /// The same, as what a command stops for.
    package var diagnostic: Diagnostic { Diagnostic("cannot \(operation): \(reason)", file: path) }

    /// Why: `explanation`, else the system's words for `code`.
    package var reason: String {
        if let explanation { return explanation }
        // Files the tool writes are opened with O_NOFOLLOW: ELOOP is a link planted where one goes.
        guard code == ELOOP else { return String(cString: strerror(code)) }
        return "it is a symbolic link, and the tool writes only through files it made itself (remove the link)"
    }
}

/// An open file descriptor that closes itself.
package final class FileDescriptor {
    package let path: String
    let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    package static func openForReading(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw SystemError(operation: "open for reading", path: path, code: errno) }
        let file = FileDescriptor(path: path, fd: fd)
        try PinnedFiles.check(path, fd: fd)
        return file
    }

    /// Opens a regular file for reading, refusing anything else (a pipe, a device, a folder)
    /// without blocking on it: a pipe put where a step's file was expected would otherwise hang
    /// the step at the opening.
    package static func openRegularForReading(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { throw SystemError(operation: "open for reading", path: path, code: errno) }
        let file = FileDescriptor(path: path, fd: fd)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemError(operation: "read the kind of", path: path, code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SystemError(
                operation: "open for reading", path: path, code: EINVAL,
                explanation: "not a regular file (a folder, a pipe or a device): name a file a step wrote")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        try PinnedFiles.check(path, fd: fd)
        return file
    }

    /// Creates the file afresh, readable by everyone (or its owner only with `mode` 0o600),
    /// writable by its owner: whatever had the name before (a file a killed run left, a link
    /// planted there) is removed first, never written through.
    package static func create(_ path: String, mode: UInt32 = 0o644) throws(SystemError) -> FileDescriptor {
        unlink(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode))
        if fd < 0 { throw SystemError(operation: "create", path: path, code: errno) }
        return FileDescriptor(path: path, fd: fd)
    }

    /// Opens for appending, creating the file readable and writable by its owner only.
    ///
    /// Each write lands at the end, whoever else appends. A link at `path` is refused.
    package static func openForAppending(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 { throw SystemError(operation: "open for appending", path: path, code: errno) }
        return FileDescriptor(path: path, fd: fd)
    }

    /// A new file that only the descriptor reaches, to append to and read back, its owner's alone.
    ///
    /// It has no name in `folder`, so nothing is left behind however the process ends
    /// (O_TMPFILE). Where the file system cannot make one, it is made under a name in a new
    /// owner-only folder, the name and the folder removed at once.
    package static func createUnnamed(in folder: String) throws(SystemError) -> FileDescriptor {
        let fd = refund_cost_open_unnamed(folder)
        if fd >= 0 { return FileDescriptor(path: folder, fd: fd) }
        guard errno == EOPNOTSUPP || errno == EISDIR else {
            throw SystemError(operation: "create a file in this temporary folder", path: folder, code: errno)
        }
        var random = SystemRandomNumberGenerator()
        let own = folder + "/refund-cost-\(String(random.next(), radix: 16))"
        try FileSystem.createNewDirectory(own, mode: 0o700)
        defer { rmdir(own) }
        let path = own + "/unnamed"
        let named = open(path, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if named < 0 { throw SystemError(operation: "create", path: path, code: errno) }
        unlink(path)
        return FileDescriptor(path: folder, fd: named)
    }

    /// Opens read-write, creating the file when missing (for a lock file); a link is refused.
    package static func openForLocking(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 { throw SystemError(operation: "open", path: path, code: errno) }
        return FileDescriptor(path: path, fd: fd)
    }

    /// Opens a file the tool itself wrote and may write again, for reading: a link is refused.
    package static func openOwnForReading(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 { throw SystemError(operation: "open for reading", path: path, code: errno) }
        return FileDescriptor(path: path, fd: fd)
    }

    /// Takes group and others' access away; true when they had some (the file was theirs to read).
    package func makeOwnerOnly() throws(SystemError) -> Bool {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemError(operation: "read the mode of", path: path, code: errno) }
        guard info.st_mode & 0o077 != 0 else { return false }
        if fchmod(fd, info.st_mode & 0o700) != 0 { throw SystemError(operation: "make owner-only", path: path, code: errno) }
        return true
    }

    /// How many names the open file has (hard links).
    package func linkCount() throws(SystemError) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemError(operation: "read the status of", path: path, code: errno) }
        return Int(info.st_nlink)
    }

    /// The file's size now.
    package func size() throws(SystemError) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemError(operation: "read the size of", path: path, code: errno) }
        return Int(info.st_size)
    }

    /// Cuts the file to its first `length` bytes (a write that failed part-way taken back).
    package func truncate(to length: Int) throws(SystemError) {
        if ftruncate(fd, off_t(length)) != 0 { throw SystemError(operation: "truncate", path: path, code: errno) }
    }

    /// Takes the exclusive lock on the file without waiting; false when another process holds it.
    ///
    /// The lock goes with the descriptor: closing it, or the process ending, releases it.
    package func tryLockExclusively() throws(SystemError) -> Bool {
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
        if errno == EWOULDBLOCK { return false }
        throw SystemError(operation: "lock", path: path, code: errno)
    }

    /// Replaces the file's content with `bytes` (for the lock file's holder).
    package func replaceContent(_ bytes: [UInt8]) throws(SystemError) {
        if ftruncate(fd, 0) != 0 { throw SystemError(operation: "truncate", path: path, code: errno) }
        let written = bytes.withUnsafeBytes { buffer in buffer.isEmpty ? 0 : pwrite(fd, buffer.baseAddress, buffer.count, 0) }
        if written < 0 { throw SystemError(operation: "write", path: path, code: errno) }
    }

    /// Reads up to `buffer.count` bytes; 0 means end of file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError(operation: "read", path: path, code: errno)
        }
    }

    /// Reads at an absolute offset without moving the file position.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemError) -> Int {
        while true {
            let n = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError(operation: "read", path: path, code: errno)
        }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError(operation: "write", path: path, code: errno)
            }
            offset += n
        }
    }

    /// Writes at an absolute offset without moving the file position.
    package func write(_ bytes: UnsafeRawBufferPointer, at start: Int) throws(SystemError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = pwrite(fd, base + offset, bytes.count - offset, off_t(start + offset))
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError(operation: "write", path: path, code: errno)
            }
            offset += n
        }
    }

    package func synchronize() throws(SystemError) {
        if fsync(fd) != 0 { throw SystemError(operation: "flush to disk", path: path, code: errno) }
    }
}

extension FileDescriptor {
    /// The whole file, for the small files the tool writes itself (snapshots, partials).
    package static func readAll(_ path: String) throws(SystemError) -> [UInt8] {
        try openForReading(path).readAll()
    }

    /// What is left of the file from its position on; with `limit`, at most one byte more
    /// than it (so a caller can tell a file that is too large without reading all of it).
    package func readAll(limit: Int = .max) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(
            byteCount: limit >= 1 << 20 ? 1 << 20 : max(1, limit + 1), alignment: 16)
        defer { chunk.deallocate() }
        while bytes.count <= limit {
            let count = try read(into: chunk)
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk.prefix(count))
        }
        return bytes
    }
}

/// A whole file mapped read-only into memory: read where the page cache holds it, without
/// copying it into buffers of the process.
///
/// The file must not shrink while it is mapped (reading a page past its new end stops the
/// process); the inputs a run reads are exports that nothing writes during the run. Pages a
/// reader is done with are let go with `release`, so the process's resident memory does not
/// grow with the file (they stay in the page cache).
///
/// Why `@unchecked Sendable` is safe: the bytes are mapped read-only and nothing writes them;
/// `release` only lets the kernel drop pages, which any thread's next read maps again unchanged.
package final class MappedFile: @unchecked Sendable {
    package let path: String
    /// The file's bytes; unchanged while the mapping lives.
    package let bytes: UnsafeRawBufferPointer

    /// Maps the file at `path`; nil for an empty file (nothing to map).
    package init?(path: String) throws(SystemError) {
        let file = try FileDescriptor.openForReading(path)
        var info = stat()
        guard fstat(file.fd, &info) == 0 else { throw SystemError(operation: "read the size of", path: path, code: errno) }
        let count = Int(info.st_size)
        guard count > 0 else { return nil }
        guard let base = mmap(nil, count, PROT_READ, MAP_PRIVATE, file.fd, 0), base != MAP_FAILED else {
            throw SystemError(operation: "map for reading", path: path, code: errno)
        }
        // Read front to back: the kernel reads ahead further and drops pages behind sooner.
        _ = madvise(base, count, MADV_SEQUENTIAL)
        self.path = path
        bytes = UnsafeRawBufferPointer(start: base, count: count)
    }

    /// Lets go of the pages that hold `range` (a later read of them, by a reader of the
    /// neighbouring bytes, maps them again from the page cache or the file, unchanged).
    package func release(_ range: Range<Int>) {
        guard let base = bytes.baseAddress, !range.isEmpty else { return }
        let page = MappedFile.pageSize
        let start = range.lowerBound / page * page
        _ = madvise(UnsafeMutableRawPointer(mutating: base + start), range.upperBound - start, MADV_DONTNEED)
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }
}
