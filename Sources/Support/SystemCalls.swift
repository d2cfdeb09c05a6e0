// Every libc call the library makes lives here, so the rest of the code speaks Swift.
// The product runs on Linux; Glibc is the only C library it is built against.
internal import CSystem
import Glibc

/// A failed system call, with the path it was about and the errno text.
package struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    package var operation: String
    package var path: String
    package var code: Int32

    /// `path: cannot open for reading: No such file or directory`: a phrase other errors quote.
    package var description: String {
        "\(path): cannot \(operation): \(String(cString: strerror(code)))"
    }

    /// The same, as what a command stops for.
    package var diagnostic: Diagnostic {
        Diagnostic("cannot \(operation): \(String(cString: strerror(code)))", file: path)
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
        return FileDescriptor(path: path, fd: fd)
    }

    /// Creates or truncates the file, readable by everyone, writable by its owner.
    package static func create(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw SystemError(operation: "create", path: path, code: errno) }
        return FileDescriptor(path: path, fd: fd)
    }

    /// Opens for appending, creating the file readable and writable by its owner only: each
    /// write lands at the end, whoever else appends.
    package static func openForAppending(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        if fd < 0 { throw SystemError(operation: "open for appending", path: path, code: errno) }
        return FileDescriptor(path: path, fd: fd)
    }

    /// Opens read-write, creating the file when missing (for a lock file).
    package static func openForLocking(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 { throw SystemError(operation: "open", path: path, code: errno) }
        return FileDescriptor(path: path, fd: fd)
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

    package func synchronize() throws(SystemError) {
        if fsync(fd) != 0 { throw SystemError(operation: "flush to disk", path: path, code: errno) }
    }
}

/// File-system queries and changes that are not about one open file.
package enum FileSystem {
    /// What a path names, as far as reading it goes.
    package enum Kind: Sendable, Hashable {
        case regularFile
        case directory
        /// A pipe, socket or device: opening or reading it can block forever.
        case special
        case missing
    }

    package struct Entry: Sendable, Hashable {
        package var name: String
        package var kind: Kind
        package var isDirectory: Bool { kind == .directory }
    }

    /// A file's size and last modification (nanoseconds since 1970), following symbolic links.
    package static func status(_ path: String) -> (bytes: Int, modified: Int64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (Int(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// Who owns `path` and who may write it: what a file trusted with a decision must show
    /// (ssh refuses its files on the same grounds).
    ///
    /// A sticky folder (like `/tmp`) counts as not writable by others: they cannot replace or
    /// remove a file of ours in it, and a file they put there first is theirs, which is refused.
    /// True when group or others may read `path` (a private key must not be).
    package static func readableByOthers(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & (S_IRGRP | S_IROTH | S_IWGRP | S_IWOTH) != 0
    }

    package static func ownership(_ path: String) -> (ownedByUser: Bool, writableByOthers: Bool)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let sticky = info.st_mode & S_IFMT == S_IFDIR && info.st_mode & S_ISVTX != 0
        let ownedByUser = info.st_uid == getuid() || (sticky && info.st_uid == 0)
        return (ownedByUser, !sticky && info.st_mode & (S_IWGRP | S_IWOTH) != 0)
    }

    /// An environment variable, if set.
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// What `path` names, following symbolic links.
    package static func kind(_ path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        default: return .special
        }
    }

    package static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The entries of a directory, sorted by name so that every run reads files in the same order.
    package static func list(_ directory: String) throws(SystemError) -> [Entry] {
        guard let dir = opendir(directory) else {
            throw SystemError(operation: "list the folder", path: directory, code: errno)
        }
        defer { closedir(dir) }
        var entries: [Entry] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            entries.append(Entry(name: name, kind: kind(directory + "/" + name)))
        }
        return entries.sorted { $0.name.bytesPrecede($1.name) }
    }

    /// Creates the directory and its parents; an existing directory is fine.
    package static func createDirectory(_ path: String) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw SystemError(operation: "create the folder", path: prefix, code: errno)
            }
            prefix += "/"
        }
    }

    package static func rename(_ from: String, to: String) throws(SystemError) {
        if Glibc.rename(from, to) != 0 {
            throw SystemError(operation: "rename to \(to)", path: from, code: errno)
        }
    }

    package static func remove(_ path: String) {
        unlink(path)
    }

    /// Removes a directory tree (used to replace an output folder as a whole).
    package static func removeTree(_ path: String) throws(SystemError) {
        guard isDirectory(path) else {
            if unlink(path) != 0 && errno != ENOENT {
                throw SystemError(operation: "remove", path: path, code: errno)
            }
            return
        }
        for entry in try list(path) {
            try removeTree(path + "/" + entry.name)
        }
        if rmdir(path) != 0 { throw SystemError(operation: "remove the folder", path: path, code: errno) }
    }

    package static var processID: Int32 { getpid() }

    /// True while a process with this id runs (one that is not ours counts too).
    package static func processIsAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Swaps two existing paths in one step, so a reader sees the old or the new entry and
    /// never neither.
    ///
    /// False when this kernel or file system cannot (the caller then renames).
    package static func exchange(_ a: String, _ b: String) -> Bool {
        refund_cost_exchange_paths(a, b) == 0
    }

    /// The absolute path with every symbolic link resolved; for a path that does not exist
    /// yet, its nearest existing ancestor resolved and the rest appended.
    package static func resolvedPath(_ path: String) -> String {
        var existing = path.isEmpty ? "." : path
        var missing: [Substring] = []
        while true {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                let base = String(cString: resolved)
                let rest = missing.reversed().joined(separator: "/")
                return rest.isEmpty ? base : (base == "/" ? "/" : base + "/") + rest
            }
            guard let slash = existing.lastIndex(of: "/") else {
                missing.append(Substring(existing))
                existing = "."
                continue
            }
            missing.append(existing[existing.index(after: slash)...])
            existing = slash == existing.startIndex ? "/" : String(existing[..<slash])
        }
    }

    /// True when `name` matches the shell glob `glob` (`*`, `?`, `[...]`), as a shell matches a
    /// file name.
    package static func matches(glob: String, name: String) -> Bool { fnmatch(glob, name, 0) == 0 }

    /// Cores online, for the default number of threads.
    package static var processorCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}

/// Wall-clock and process measurements for progress lines and `run.json`.
package enum Clock {
    /// Monotonic seconds, for measuring elapsed time.
    package static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The wall clock, to the millisecond: what "now" means for tokens and deadlines.
    package static func now() -> Timestamp {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Timestamp(milliseconds: Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000)
    }

    /// Waits `seconds` (nothing for zero or less).
    package static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var wanted = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var left = timespec()
        while nanosleep(&wanted, &left) != 0 && errno == EINTR { wanted = left }
    }

    /// Peak resident set size of this process, in bytes.
    package static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024
    }
}

/// Counts the line feeds in a byte range with libc's vectorised `memchr`.
@inlinable
package func countLineFeeds(_ start: UnsafeRawPointer, _ count: Int) -> Int {
    var lines = 0
    var cursor = start
    var remaining = count
    while remaining > 0, let hit = Glibc.memchr(cursor, 0x0A, remaining) {
        lines += 1
        let advance = UnsafeRawPointer(hit) - cursor + 1
        cursor = UnsafeRawPointer(hit) + 1
        remaining -= advance
    }
    return lines
}

/// Writes a line to standard error without buffering, for progress and diagnostics.
package func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        _ = Glibc.write(2, bytes.baseAddress, bytes.count)
    }
}

/// Byte-wise equality of two ranges with libc's `memcmp`.
@inlinable
package func memcmpBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    Glibc.memcmp(a, b, count) == 0
}

/// True when `needle` occurs in `haystack` (libc's `memmem`).
package func contains(_ haystack: UnsafeRawBufferPointer, _ needle: StaticString) -> Bool {
    guard let base = haystack.baseAddress else { return false }
    return refund_cost_find_bytes(base, haystack.count, needle.utf8Start, needle.utf8CodeUnitCount) != nil
}

/// Counts the occurrences of one byte in a range with `memchr`.
package func countByte(_ start: UnsafeRawPointer, _ count: Int, _ byte: UInt8) -> Int {
    var found = 0
    var cursor = start
    var remaining = count
    while remaining > 0, let hit = Glibc.memchr(cursor, Int32(byte), remaining) {
        found += 1
        let advance = UnsafeRawPointer(hit) - cursor + 1
        cursor = UnsafeRawPointer(hit) + 1
        remaining -= advance
    }
    return found
}

/// The address of the first `byte` in a range (libc's `memchr`), or nil.
@inlinable
package func findFirst(_ byte: UInt8, in start: UnsafeRawPointer, _ count: Int) -> UnsafeRawPointer? {
    Glibc.memchr(start, Int32(byte), count).map { UnsafeRawPointer($0) }
}

extension FileDescriptor {
    /// The whole file, for the small files the tool writes itself (snapshots, partials).
    package static func readAll(_ path: String) throws(SystemError) -> [UInt8] {
        let file = try openForReading(path)
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count = try file.read(into: chunk)
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk.prefix(count))
        }
    }
}
