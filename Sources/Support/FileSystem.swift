internal import CSystem
import Glibc

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
        /// False for a name that is not UTF-8: `name` then shows U+FFFD for its other bytes, so
        /// it names no file (and may read as another file's name).
        package var nameIsUTF8 = true
        package var isDirectory: Bool { kind == .directory }
    }

    /// A file's size and last modification (nanoseconds since 1970), following symbolic links.
    package static func status(_ path: String) -> (bytes: Int, modified: Int64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (Int(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// What tells one version of a file from another without reading it: its size, the times
    /// its bytes and its inode last changed (nanoseconds since 1970; the inode's time moves with
    /// any write or rename onto it and is set by no one by hand) and the inode itself (a file
    /// replaced by another of the same name has another).
    ///
    /// Equal identities: the same bytes, as
    /// git's index trusts them; any other difference is settled by reading the bytes.
    package struct Identity: Sendable, Hashable, Codable {
        package var bytes: Int
        package var changed: Int64
        package var inode: UInt64
        package var device: UInt64
        package var modified: Int64
        /// When the file was made (statx's birth time), or -1 when the file system does not say.
        package var born: Int64 = -1

        /// The same file (device, inode, and the birth time where both are known: an inode
        /// number freed by a removed file is given to the next one made), whatever its size and
        /// times.
        package func isSameFile(as other: Identity) -> Bool {
            inode == other.inode && device == other.device && (born < 0 || other.born < 0 || born == other.born)
        }
    }

    /// The identity of the file at `path`, following symbolic links; nil when there is none.
    package static func identity(_ path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(
            bytes: Int(info.st_size), changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
            inode: UInt64(info.st_ino), device: UInt64(info.st_dev),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            born: Int64(refund_cost_birth_time(path)))
    }

    /// How many names the file at `path` has (hard links), not following a symbolic link.
    package static func linkCount(_ path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Int(info.st_nlink)
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

    /// True when `path` itself is a symbolic link (whatever it points to, if anything).
    package static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Creates one new folder with `mode`; fails when anything (a folder, a file, a link)
    /// already has the name.
    package static func createNewDirectory(_ path: String, mode: UInt32 = 0o755) throws(SystemError) {
        if mkdir(path, mode_t(mode)) != 0 { throw SystemError(operation: "create the folder", path: path, code: errno) }
    }

    /// Takes group and others' access to `path` away (a folder of the tool's own state).
    package static func makeOwnerOnly(_ path: String) throws(SystemError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw SystemError(operation: "read the mode of", path: path, code: errno) }
        guard info.st_mode & 0o077 != 0 else { return }
        if chmod(path, info.st_mode & 0o700) != 0 { throw SystemError(operation: "make owner-only", path: path, code: errno) }
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
            let (name, isUTF8) = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.prefix { $0 != 0 }
                return String(validating: bytes, as: UTF8.self).map { ($0, true) }
                    ?? (String(decoding: bytes, as: UTF8.self), false)
            }
            if name == "." || name == ".." { continue }
            entries.append(Entry(name: name, kind: kind(directory + "/" + name), nameIsUTF8: isUTF8))
        }
        return entries.sorted { $0.name.bytesPrecede($1.name) }
    }

    /// The system's temporary folder: `$TMPDIR`, else /tmp.
    package static var temporaryFolder: String {
        environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// A new folder of the owner's only, under `$TMPDIR` (or /tmp), named from `prefix`.
    package static func temporaryDirectory(prefix: String) throws(SystemError) -> String {
        let base = temporaryFolder
        var template = Array((base + "/" + prefix + ".XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard made != nil else { throw SystemError(operation: "create a temporary folder", path: base, code: errno) }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The folder holding `path` ("." for a bare name, "/" for a name at the root).
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Creates the directory and its parents (with `mode`); an existing directory is fine.
    package static func createDirectory(_ path: String, mode: UInt32 = 0o755) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, mode_t(mode)) != 0 && errno != EEXIST {
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
    ///
    /// A link in it is removed as a link: what it points to is never touched.
    package static func removeTree(_ path: String) throws(SystemError) {
        guard isDirectory(path), !isSymbolicLink(path) else {
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
    /// yet, its nearest existing ancestor resolved and the rest walked as it will be once its
    /// folders are made: `.` names nothing, and `..` after a folder not made yet is the folder
    /// before it (`out/missing/..` is `out`, where the kernel would refuse it now and accept it
    /// once `missing` is made).
    package static func resolvedPath(_ path: String) -> String {
        var existing = path.isEmpty ? "." : path
        var missing: [Substring] = []
        while true {
            if let resolved = realpath(existing, nil) {
                let base = String(cString: resolved)
                free(resolved)
                var parts = base.split(separator: "/").map(String.init)
                var resolvedCount = parts.count
                for component in missing.reversed() where component != "." && !component.isEmpty {
                    guard component == ".." else {
                        parts.append(String(component))
                        continue
                    }
                    if !parts.isEmpty { parts.removeLast() }
                    resolvedCount = min(resolvedCount, parts.count)
                }
                let walked = "/" + parts.joined(separator: "/")
                // Above the resolved ancestor, what follows may be a link again: resolved anew
                // (the path now holds no `..`, so once is enough).
                return resolvedCount < base.split(separator: "/").count ? resolvedPath(walked) : walked
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
