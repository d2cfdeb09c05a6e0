import Ingest
import Support

/// An input file as respond's state last read it: its identity, how far it was read, and what
/// became of its lines (its rejects).
///
/// The sums of the bytes read, block by block, are kept
/// beside it (`InputSums`): they are read only when the file is not as it was.
///
/// A file is unchanged when its identity is (size, inode, the times its bytes and its inode
/// changed) and it was read to its end, as git's index trusts stat data. Any other difference
/// is settled by the bytes:
/// - the same size, a time moved: every byte read is hashed again; the same bytes are a change
///   of metadata alone (a `chmod`, a hard link, a `touch`), which reads nothing again;
/// - larger, the same inode: the proof that its bytes read are unchanged (`grownProof`), then
///   only what follows them is read;
/// - shorter, another inode, other bytes: the file is read again whole, alone.
struct TrackedFile: Sendable, Codable, Hashable {
    enum Kind: String, Sendable, Codable, Hashable {
        case appStore
        case cost
    }

    var path: String
    var kind: Kind
    /// Bytes read: the file's length when it was looked at.
    var bytes: Int
    var identity: FileSystem.Identity
    /// The bytes read end with a line feed: what follows starts a line.
    var endsLine: Bool
    /// Line feeds in the bytes read: the line the next byte starts, less one.
    var lineFeeds: Int
    /// Taken out: its lines and rows no longer count (the file is gone, or it was read again
    /// under a number of its own).
    var retired = false
    /// What reading it refused: its lines, or the whole file.
    var rejects = RejectTally()
    /// Bytes of the items file its lines take (an App Store file's): what a file taken out
    /// leaves there until the state is built again.
    var itemBytes = 0

    /// How many blocks besides the first and the last read a run checks of a file that grew.
    static let sampledBlocks = 8

    enum Change: Equatable {
        case same
        /// Its bytes are those read; only its identity moved.
        case metadata(FileSystem.Identity)
        /// Larger, its bytes read unchanged: what follows them is new.
        case grown(FileSpan)
        /// To be read again whole (why, in a few words).
        case changed(String)
        case gone
    }

    /// What became of the file since it was read.
    ///
    /// `sums` gives the sums of the bytes read (only
    /// called when the bytes must be looked at); with `everyByte`, every byte read is hashed
    /// again whatever its identity says (the daily check).
    /// The sums are keyed with `key`, the state's.
    func compared(sums: () throws -> BlockSums, key: SipHash, everyByte: Bool = false) throws -> Change {
        guard FileSystem.kind(path) == .regularFile, let now = FileSystem.identity(path) else { return .gone }
        if now == identity && now.bytes == bytes && !everyByte { return .same }
        guard now.isSameFile(as: identity) else { return .changed("another file has its name") }
        guard now.bytes >= bytes else { return .changed("it is shorter than when it was read") }
        let sums = try sums()
        guard sums.length == bytes else { return .changed("its sums do not cover the bytes read") }
        let file = try FileDescriptor.openForReading(path)
        if now.bytes == bytes || everyByte {
            guard try Self.matches(file, sums, key: key, blocks: Array(0..<sums.blocks)) else {
                return .changed(everyByte ? "its bytes are not those read (found by --full-check)" : "its bytes changed in place")
            }
            if now.bytes == bytes { return now == identity ? .same : .metadata(now) }
        } else {
            guard try Self.matches(file, sums, key: key, blocks: Self.grownProof(sums)) else {
                return .changed("its earlier bytes are not those read")
            }
        }
        guard endsLine else { return .changed("it grew inside its last line") }
        return .grown(FileSpan(start: bytes, firstLine: lineFeeds + 1, end: now.bytes))
    }

    /// The blocks that prove a grown file's bytes read unchanged: the first, the last (the one
    /// that ends where the last run stopped, part-full or not), and `sampledBlocks` of the
    /// others drawn anew each run, so an edit anywhere is found by some run, and by the next
    /// `--full-check` for sure.
    static func grownProof(_ sums: BlockSums) -> [Int] {
        guard sums.blocks > 2 else { return Array(0..<sums.blocks) }
        var chosen: Set<Int> = [0, sums.blocks - 1]
        let middle = sums.blocks - 2
        var generator = SystemRandomNumberGenerator()
        while chosen.count < 2 + min(sampledBlocks, middle) { chosen.insert(1 + Int.random(in: 0..<middle, using: &generator)) }
        return chosen.sorted()
    }

    private static func matches(_ file: FileDescriptor, _ sums: BlockSums, key: SipHash, blocks: [Int]) throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: BlockSums.blockSize)
        for block in blocks {
            let range = sums.range(ofBlock: block)
            let read = try buffer.withUnsafeMutableBytes { raw in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[..<range.count]), at: range.lowerBound)
            }
            guard read == range.count else { return false }
            let sum = buffer.withUnsafeBytes { BlockSums.sum(UnsafeRawBufferPointer(rebasing: $0[..<read]), key: key) }
            if sum != sums.sum(ofBlock: block) { return false }
        }
        return true
    }

    /// The file at `path` read through byte `end` (its length when it was looked at: it may
    /// have grown since), going on from `before` and its sums when the bytes up to
    /// `before.bytes` were read by an earlier run.
    static func read(
        _ path: String, kind: Kind, through end: Int, continuing before: (file: TrackedFile, sums: BlockSums)? = nil,
        key: SipHash
    ) throws -> (file: TrackedFile, sums: BlockSums) {
        guard let identity = FileSystem.identity(path) else { throw StateDamageError(what: "\(path) is gone") }
        let file = try FileDescriptor.openForReading(path)
        let bytes = min(end, identity.bytes)
        let start = before.map { min($0.file.bytes, bytes) } ?? 0
        // Keyed sums go on from the last whole block: the part-full one is summed again.
        let resumed = start > 0 ? (before?.sums ?? BlockSums()).wholeBlocks : BlockSums()
        var builder = BlockSums.Builder(continuing: resumed, key: key)
        var lineFeeds = start > 0 ? before?.file.lineFeeds ?? 0 : 0
        var last: UInt8? = start > 0 ? (before?.file.endsLine == true ? 0x0A : 0) : nil
        let block = 1 << 20
        var buffer = [UInt8](repeating: 0, count: block)
        var offset = resumed.length
        while offset < bytes {
            let wanted = min(block, bytes - offset)
            let read = try buffer.withUnsafeMutableBytes { raw in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[..<wanted]), at: offset)
            }
            guard read > 0 else { break }
            buffer.withUnsafeBytes { raw in
                builder.add(UnsafeRawBufferPointer(rebasing: raw[..<read]))
                // Line feeds of the bytes after those read before only.
                let fresh = max(0, start - offset)
                if fresh < read, let base = raw.baseAddress { lineFeeds += Support.countLineFeeds(base + fresh, read - fresh) }
            }
            last = buffer[read - 1]
            offset += read
        }
        let sums = builder.finished
        var tracked = TrackedFile(
            path: path, kind: kind, bytes: offset, identity: identity, endsLine: offset == 0 || last == 0x0A,
            lineFeeds: lineFeeds)
        tracked.rejects = start > 0 ? before?.file.rejects ?? RejectTally() : RejectTally()
        tracked.itemBytes = start > 0 ? before?.file.itemBytes ?? 0 : 0
        return (tracked, sums)
    }
}
