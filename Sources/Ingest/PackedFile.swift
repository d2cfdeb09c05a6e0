import Support

/// The container of the files the tool writes for itself (ledger snapshots, partial totals,
/// decoded pieces, respond's manifest): a text header that says what the file is and its format
/// version, then the check of its content, then the content gzipped.
///
/// The check is the SHA-256 of the content, or, for a file between the steps of a distributed
/// run, an HMAC-SHA256 under the run's secret (`StepSecret`) of the first line and the gzipped
/// content, checked before a byte of it is inflated (a forged file of a few kilobytes could
/// inflate to gigabytes):
/// a file of another kind or version, cut short, altered, or made by someone without the secret
/// is refused with what it is, so a task never computes from a stale, damaged or forged step.
package enum PackedFile {
    /// With `ownerOnly`, the file is readable by its owner alone (respond's state); with
    /// `secret`, its content is authenticated under it.
    ///
    /// Returns the check written (`hmac-sha256 ...` or `sha256 ...`): what names this content.
    @discardableResult
    package static func write(
        _ content: [UInt8], kind: String, version: Int, to path: String, ownerOnly: Bool = false, secret: StepSecret? = nil
    ) throws -> String {
        let first = firstLine(kind: kind, version: version)
        let compressed = try Gzip.compress(content, name: path)
        let check =
            secret.map { secret in
                let mac = ContentMAC(first: first, secret: secret)
                compressed.withUnsafeBytes { mac.update($0) }
                return mac.finish()
            } ?? CheckPrefix.digest + content.withUnsafeBytes(SHA256.digest)
        try store(first + "\n" + check + "\n", [compressed], to: path, ownerOnly: ownerOnly)
        return check
    }

    /// The content of the file at `path`, refused unless it is a `kind` file of `version` whose
    /// check holds: its MAC under `secret` when given (a file with only a SHA-256 is refused
    /// then), its SHA-256 otherwise.
    package static func read(_ path: String, kind: String, version: Int, secret: StepSecret? = nil) throws -> [UInt8] {
        try readChecked(path, kind: kind, version: version, secret: secret).content
    }

    /// The same file, authenticated under `secret`, its content handed piece by piece to the
    /// sink `content` is given, compressed and written as it comes: neither the content nor the
    /// compressed bytes are held whole.
    ///
    /// The MAC, known only at the end, is written over a placeholder of its length in the
    /// header before the file is renamed into place.
    @discardableResult
    package static func write(
        kind: String, version: Int, to path: String, secret: StepSecret,
        content: (_ sink: @escaping ([UInt8]) throws -> Void) throws -> Void
    ) throws -> String {
        let first = firstLine(kind: kind, version: version)
        let file = try create(path, ownerOnly: false)
        try file.append(first + "\n" + ContentMAC.placeholder + "\n")
        let mac = ContentMAC(first: first, secret: secret)
        let deflater = try Gzip.Deflater(name: path) { compressed in
            compressed.withUnsafeBytes { mac.update($0) }
            try file.append(compressed)
        }
        try content { try deflater.add($0) }
        try deflater.finish()
        let check = mac.finish()
        try file.overwrite(Array((check + "\n").utf8), at: first.utf8.count + 1)
        try file.commit()
        return check
    }

    /// The first line of a `kind` file of `version`, without its line feed.
    private static func firstLine(kind: String, version: Int) -> String { firstLinePrefix(kind: kind) + String(version) }

    /// What the first line of any `kind` file starts with: its format version follows.
    private static func firstLinePrefix(kind: String) -> String { "refund-cost \(kind) " }

    /// What a header's check starts with: the kind of check, then its hex digits.
    private enum CheckPrefix {
        /// An HMAC-SHA256 under a run's secret of the first line and the gzipped content.
        static let mac = "hmac-sha256 "
        /// The SHA-256 of the content.
        static let digest = "sha256 "
    }

    /// The MAC under a run's secret of a packed file's first line (and its line feed) and its
    /// gzipped content, taken as the content is written or read: what the header's check is.
    private final class ContentMAC {
        /// What the header holds while a file written as its content comes is not yet complete:
        /// a check of the same length that no MAC is.
        static let placeholder = CheckPrefix.mac + String(repeating: "0", count: 64)
        private let mac: HMACSHA256

        init(first: String, secret: StepSecret) {
            mac = HMACSHA256(key: secret.key)
            Array((first + "\n").utf8).withUnsafeBytes { mac.update($0) }
        }

        func update(_ bytes: UnsafeRawBufferPointer) { mac.update(bytes) }

        /// The check line's text: its kind and the MAC, once only (it ends the MAC).
        func finish() -> String { CheckPrefix.mac + mac.finish() }

        /// True when `check`, a header's, is this MAC, compared in constant time (it ends the MAC).
        func holds(_ check: String) -> Bool { HMACSHA256.equal(check, finish()) }
    }

    /// Writes the header lines, then the gzipped content's pieces, whole or not at all.
    private static func store(_ header: String, _ compressed: [[UInt8]], to path: String, ownerOnly: Bool) throws {
        let file = try create(path, ownerOnly: ownerOnly)
        try file.append(Array(header.utf8))
        for piece in compressed { try file.append(piece) }
        try file.commit()
    }

    /// A file to write at `path`, renamed into place when committed, its folder made first.
    private static func create(_ path: String, ownerOnly: Bool) throws -> AtomicFileWriter {
        // A step's work folder is made as the report's output folder is: the user names it, the tool makes it.
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try FileSystem.createDirectory(String(path[..<slash]))
        }
        return try AtomicFileWriter(path: path, ownerOnly: ownerOnly)
    }

    /// The content and the check that held (what `write` returned for it).
    package static func readChecked(_ path: String, kind: String, version: Int, secret: StepSecret? = nil) throws -> (
        content: [UInt8], check: String
    ) {
        let (compressed, check) = try checkedHeader(path, kind: kind, version: version, secret: secret)
        let content = try Gzip.decompress(compressed, name: path)
        if secret == nil {
            guard check == CheckPrefix.digest + content.withUnsafeBytes(SHA256.digest) else {
                throw PackedFileError(path: path, problem: "its content does not match its SHA-256 (a damaged or altered file)")
            }
        }
        return (content, check)
    }

    /// The SHA-256 of the content of the authenticated `kind` file at `path`, inflated a chunk at
    /// a time: what names a snapshot, without holding it, compressed or decoded.
    ///
    /// The file is read twice, a megabyte at a time: once for its MAC, checked before a byte is
    /// inflated, then to inflate it.
    package static func contentDigest(_ path: String, kind: String, version: Int, secret: StepSecret) throws -> String {
        let (file, header) = try openChecked(path, kind: kind, version: version, secret: secret)
        return try digest(ContentStream(file: file, header: header, path: path, secret: secret, checked: nil)).sha256
    }

    /// The content of the authenticated `kind` file at `path`, pulled by `read` a chunk at a time
    /// (`ContentStream.read(into:)`) and never held whole, the content's SHA-256, and the check
    /// that held (what names the file's content, as `readChecked` returns it).
    ///
    /// The file is read three times, a megabyte at a time: once for its MAC, checked before a
    /// byte is inflated; then inflated for the content's size, its SHA-256 and that of each of
    /// its megabytes, authenticated again as it is read; then inflated again for `read`, each
    /// megabyte handed out only once its digest is the one the second reading took. So `read`
    /// acts on nothing but what was authenticated (a count or a length written into the file in
    /// place between the readings is refused before it is read), and what it returns is handed
    /// back only once the third reading's MAC held too.
    package static func readStreaming<T>(
        _ path: String, kind: String, version: Int, secret: StepSecret, _ read: (_ content: ContentStream) throws -> T
    ) throws -> (value: T, sha256: String, check: String) {
        let (file, header) = try openChecked(path, kind: kind, version: version, secret: secret)
        let counted = try ContentStream(file: file, header: header, path: path, secret: secret, checked: nil)
        let (sha256, size) = try digest(counted)
        let content = try ContentStream(
            file: file, header: header, path: path, secret: secret, checked: (size, counted.chunkDigests))
        let value = try read(content)
        try content.finish()
        return (value, sha256, header.check)
    }

    /// The SHA-256 and the size of what `content` inflates, once its MAC held again.
    private static func digest(_ content: ContentStream) throws -> (sha256: String, size: Int) {
        let hasher = SHA256()
        var chunk = [UInt8](repeating: 0, count: ContentStream.chunkBytes)
        var size = 0
        while true {
            let produced = try chunk.withUnsafeMutableBytes { try content.read(into: $0) }
            if produced == 0 { break }
            size += produced
            chunk.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<produced])) }
        }
        try content.finish()
        return (hasher.finish(), size)
    }

    /// The content of an authenticated packed file, inflated a megabyte at a time as it is
    /// pulled, and authenticated again as its gzipped bytes are read (`finish` checks the MAC).
    ///
    /// The SHA-256 of each megabyte is taken as it is inflated: a first reading records them
    /// (`chunkDigests`, vouched for by its MAC once `finish` checked it), and a reading given
    /// them hands a megabyte out only once its digest is the one recorded.
    package final class ContentStream {
        static let chunkBytes = 1 << 20
        /// How many bytes the content holds, when an earlier reading counted them.
        package var size: Int? { checked?.size }
        /// What an earlier reading counted: the size and each megabyte's digest.
        private let checked: (size: Int, digests: [[UInt8]])?
        /// Each megabyte's digest, as this reading inflated it.
        fileprivate private(set) var chunkDigests: [[UInt8]] = []
        private let file: FileDescriptor
        private let header: Header
        private let path: String
        private let inflater: Gzip.Inflater
        private let mac: ContentMAC
        private var offset: Int
        /// The megabyte being handed out: its bytes, how many, how many are handed out.
        private var chunk = [UInt8](repeating: 0, count: ContentStream.chunkBytes)
        private var chunkCount = 0
        private var chunkPosition = 0
        private var produced = 0

        fileprivate init(
            file: FileDescriptor, header: Header, path: String, secret: StepSecret, checked: (size: Int, digests: [[UInt8]])?
        ) throws {
            self.file = file
            self.header = header
            self.path = path
            self.checked = checked
            inflater = try Gzip.Inflater(path: path)
            mac = ContentMAC(first: header.first, secret: secret)
            offset = header.contentStart
        }

        /// Copies the next bytes of the content into `buffer`; 0 at its end.
        package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            if chunkPosition == chunkCount {
                try inflateChunk()
                if chunkCount == 0 { return 0 }
            }
            let count = min(buffer.count, chunkCount - chunkPosition)
            let start = chunkPosition
            chunk.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<start + count])) }
            chunkPosition += count
            return count
        }

        /// Inflates the next megabyte (less at the end, nothing past it), refused unless it is
        /// the one an earlier reading counted.
        private func inflateChunk() throws {
            do {
                chunkCount = try chunk.withUnsafeMutableBytes { out in
                    try inflater.inflate(into: out) { input in
                        let read = try file.read(into: input, at: offset)
                        mac.update(UnsafeRawBufferPointer(rebasing: input[..<read]))
                        offset += read
                        return read
                    }
                }
            } catch is InputStreamError {
                throw PackedFileError(path: path, problem: "its content is not complete gzip data (a cut file?)")
            }
            chunkPosition = 0
            let index = chunkDigests.count
            guard chunkCount > 0 else {
                if let checked, index != checked.digests.count { throw PackedFileError(path: path, problem: changedWhileRead) }
                return
            }
            produced += chunkCount
            let hasher = SHA256()
            let count = chunkCount
            chunk.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            chunkDigests.append(hasher.finishBytes())
            if let checked {
                guard produced <= checked.size, index < checked.digests.count, checked.digests[index] == chunkDigests[index]
                else { throw PackedFileError(path: path, problem: changedWhileRead) }
            }
        }

        /// Refuses the content unless the rest of it inflates to nothing more than was counted
        /// and its gzipped bytes, read to their end, still have the MAC of the file's header.
        fileprivate func finish() throws {
            var rest = [UInt8](repeating: 0, count: 1 << 16)
            while try rest.withUnsafeMutableBytes({ try read(into: $0) }) > 0 {}
            guard checked.map({ produced == $0.size }) ?? true,
                mac.holds(header.check)
            else { throw PackedFileError(path: path, problem: changedWhileRead) }
        }
    }

    /// Refuses the file at `path` unless it is a `kind` file of `version` authenticated under
    /// `secret`, without inflating its content or holding it: what a step that only needs to
    /// know the file is one of its run's checks.
    ///
    /// Returns the check that held: what names the content.
    @discardableResult
    package static func authenticate(_ path: String, kind: String, version: Int, secret: StepSecret) throws -> String {
        try openChecked(path, kind: kind, version: version, secret: secret).header.check
    }

    /// True when `path` is a regular file that starts as a packed `kind` file does.
    ///
    /// Its first line names the kind and a format version, its second a check: what a step may
    /// write over.
    package static func isStepFile(_ path: String, kind: String) -> Bool {
        guard let file = try? FileDescriptor.openRegularForReading(path) else { return false }
        var start = [UInt8](repeating: 0, count: 512)
        guard let got = try? start.withUnsafeMutableBytes({ try file.read(into: $0, at: 0) }) else { return false }
        let lines = start[..<got].split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count == 3, let first = String(validating: lines[0], as: UTF8.self),
            let check = String(validating: lines[1], as: UTF8.self)
        else { return false }
        let prefix = firstLinePrefix(kind: kind)
        let version = first.dropFirst(prefix.count)
        return first.hasPrefix(prefix) && !version.isEmpty && version.allSatisfy({ $0.isASCII && $0.isNumber })
            && (check.hasPrefix(CheckPrefix.mac) || check.hasPrefix(CheckPrefix.digest))
    }

    /// The first two lines of a packed file and where its gzipped content starts.
    fileprivate struct Header {
        var first: String
        var check: String
        var contentStart: Int
    }

    /// The header at the start of `bytes` (the whole file or its first bytes), refused unless it
    /// is that of a `kind` file of `version`.
    private static func header(_ bytes: ArraySlice<UInt8>, path: String, kind: String, version: Int) throws -> Header {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        let expected = firstLinePrefix(kind: kind)
        guard lines.count == 3, let first = String(validating: lines[0], as: UTF8.self), first.hasPrefix(expected) else {
            throw PackedFileError(
                path: path, problem: "not a refund-cost \(kind) file (empty, cut short or of another kind): make it again")
        }
        guard first == firstLine(kind: kind, version: version) else {
            throw PackedFileError(
                path: path,
                problem:
                    "a \(kind) of format \(first.dropFirst(expected.count)), this refund-cost reads format \(version): make it again with this version"
            )
        }
        return Header(
            first: first, check: String(decoding: lines[1], as: UTF8.self), contentStart: lines[2].startIndex - bytes.startIndex)
    }

    /// What a file that no longer holds what was authenticated a moment before says.
    private static let changedWhileRead = "it changed while it was read (written by another process?): make it again"

    /// Refuses `header` unless its check is a MAC under `secret` of its first line and the
    /// gzipped content, which `content` hands to the MAC (`problem` says why it is refused,
    /// when not the usual).
    private static func requireMAC(
        _ header: Header, path: String, secret: StepSecret, problem: String? = nil,
        content: (_ mac: (UnsafeRawBufferPointer) -> Void) throws -> Void
    ) throws {
        guard header.check.hasPrefix(CheckPrefix.mac) else {
            throw PackedFileError(
                path: path, problem: "it is not authenticated with a secret (made without \(StepSecret.variable)): make it again")
        }
        let mac = ContentMAC(first: header.first, secret: secret)
        try content(mac.update)
        guard mac.holds(header.check) else {
            throw PackedFileError(
                path: path,
                problem: problem
                    ?? "its content is not authenticated by this run's secret (altered, or made with another "
                    + "\(StepSecret.variable)): make it again")
        }
    }

    /// The file at `path`, open, refused unless it is a regular file: a pipe or a device named
    /// like a step's file would be read without end.
    private static func openFile(_ path: String, kind: String) throws -> FileDescriptor {
        let found = FileSystem.kind(path)
        guard found == .regularFile || found == .missing else {
            throw PackedFileError(
                path: path,
                problem: "not a regular file (a folder, a pipe or a device): name a file the step wrote (refund-cost \(kind))")
        }
        return try FileDescriptor.openRegularForReading(path)
    }

    /// Hands the bytes of `file` from `offset` on to `body`, a megabyte at a time.
    private static func eachChunk(of file: FileDescriptor, from offset: Int, _ body: (UnsafeRawBufferPointer) -> Void)
        throws
    {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset = offset
        while true {
            let read = try chunk.withUnsafeMutableBytes { try file.read(into: $0, at: offset) }
            if read == 0 { break }
            chunk.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<read])) }
            offset += read
        }
    }

    /// The file at `path`, open, and its header, once its MAC under `secret` held: the content is
    /// read a megabyte at a time, never held.
    private static func openChecked(_ path: String, kind: String, version: Int, secret: StepSecret) throws -> (
        file: FileDescriptor, header: Header
    ) {
        let file = try openFile(path, kind: kind)
        // The header is two short lines; more than 64 KB without them is not a packed file.
        var start = [UInt8](repeating: 0, count: 1 << 16)
        let got = try start.withUnsafeMutableBytes { try file.read(into: $0, at: 0) }
        let header = try Self.header(start[..<got], path: path, kind: kind, version: version)
        try requireMAC(header, path: path, secret: secret) { mac in
            try eachChunk(of: file, from: header.contentStart, mac)
        }
        return (file, header)
    }

    /// The gzipped content and the check line, after the header and (with `secret`) the MAC held.
    private static func checkedHeader(_ path: String, kind: String, version: Int, secret: StepSecret?) throws -> (
        compressed: [UInt8], check: String
    ) {
        if let secret {
            // Authenticated a megabyte at a time before it is held: a forged file of any size is
            // refused without taking its size in memory.
            let (file, header) = try openChecked(path, kind: kind, version: version, secret: secret)
            var compressed: [UInt8] = []
            try eachChunk(of: file, from: header.contentStart) { compressed.append(contentsOf: $0) }
            // What is held is what was authenticated: a file rewritten between the two readings is refused.
            try requireMAC(header, path: path, secret: secret, problem: changedWhileRead) { mac in
                compressed.withUnsafeBytes(mac)
            }
            return (compressed, header.check)
        }
        let bytes = try openFile(path, kind: kind).readAll()
        let header = try Self.header(bytes[...], path: path, kind: kind, version: version)
        return (Array(bytes[header.contentStart...]), header.check)
    }
}

package struct PackedFileError: DiagnosticError {
    package var path: String
    package var problem: String

    package init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    package var diagnostic: Diagnostic { Diagnostic(problem, file: path) }
}
