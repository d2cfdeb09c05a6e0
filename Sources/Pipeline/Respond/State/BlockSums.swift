import Ingest
import Support
import Synchronization

/// The checksums of a file block by block, as databases keep them page by page: a run that
/// reads only part of a file (a lookup touches a few blocks of a sorted file of gigabytes)
/// checks the blocks it reads, and only those, before it trusts a byte of them; and a file read
/// before is known unchanged, or where it changed, by its blocks alone.
///
/// A block is 256 KB; its sum is the CRC-64 of its bytes (the last block's, of the bytes it
/// holds so far), or, for an input file, their SipHash-1-3 under the state's own random key
/// (`keyed`): a CRC finds damage, but an edit can be made to keep it (it is linear), and no one
/// who does not know the key can make an edit that keeps a keyed hash. respond's manifest keeps
/// the sums of each of its own files, and of each input file it read, so a file cut short,
/// grown, emptied or changed in place is found as soon as a run reads the part that changed.
struct BlockSums: Sendable, Codable, Hashable {
    static let blockSize = 1 << 18

    /// The bytes the sums cover: the file's length, or the bytes of it read.
    var length = 0
    /// Each block's sum, eight bytes a block (little-endian), kept as bytes: one copy to read
    /// and to write.
    var packed: [UInt8] = []

    var blocks: Int { packed.count / 8 }

    func sum(ofBlock block: Int) -> UInt64 {
        packed.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: block * 8, as: UInt64.self)) }
    }

    /// The bytes block `block` covers.
    func range(ofBlock block: Int) -> Range<Int> {
        (block * Self.blockSize)..<min(length, (block + 1) * Self.blockSize)
    }

    /// The sum of `bytes` (one block's, or the start of one): keyed when `key` is given.
    static func sum(_ bytes: UnsafeRawBufferPointer, key: SipHash?) -> UInt64 {
        key.map { $0.hash64(bytes) } ?? Checksum.crc64(bytes)
    }

    /// These sums without the last block when it is part-full: keyed sums cannot go on from a
    /// block's sum, so its bytes are summed again from the block's start.
    var wholeBlocks: BlockSums {
        guard length % Self.blockSize != 0 else { return self }
        return BlockSums(length: length / Self.blockSize * Self.blockSize, packed: Array(packed.dropLast(8)))
    }

    /// Sums kept as the bytes of a file are written, from its start or from the end of a file
    /// already summed (a CRC block left part-full goes on from its sum; keyed sums go on from
    /// `wholeBlocks`).
    struct Builder: Sendable {
        private(set) var sums: BlockSums
        private let key: SipHash?
        /// The last block so far, when it is part-full: its CRC, or (keyed) its bytes.
        private var open: UInt64?
        private var openBytes: [UInt8] = []

        init(continuing sums: BlockSums = BlockSums(), key: SipHash? = nil) {
            precondition(key == nil || sums.length % BlockSums.blockSize == 0, "keyed sums go on from whole blocks")
            self.sums = sums
            self.key = key
            if sums.length % BlockSums.blockSize != 0 {
                open = sums.sum(ofBlock: sums.blocks - 1)
                self.sums.packed.removeLast(8)
            }
        }

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var offset = 0
            while offset < bytes.count {
                let room = BlockSums.blockSize - sums.length % BlockSums.blockSize
                let count = min(room, bytes.count - offset)
                let piece = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
                sums.length += count
                offset += count
                let full = sums.length % BlockSums.blockSize == 0
                if let key {
                    if full && openBytes.isEmpty {
                        append(key.hash64(piece))
                    } else {
                        openBytes.append(contentsOf: piece)
                        if full {
                            append(openBytes.withUnsafeBytes { key.hash64($0) })
                            openBytes.removeAll(keepingCapacity: true)
                        }
                    }
                } else {
                    let crc = Checksum.crc64(piece, continuing: open ?? 0)
                    if full {
                        append(crc)
                        open = nil
                    } else {
                        open = crc
                    }
                }
            }
        }

        mutating func add(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { add($0) }
        }

        /// The sums of everything added.
        var finished: BlockSums {
            var copy = self
            if let key, !openBytes.isEmpty {
                copy.append(openBytes.withUnsafeBytes { key.hash64($0) })
            } else if let open {
                copy.append(open)
            }
            copy.open = nil
            copy.openBytes = []
            return copy.sums
        }

        private mutating func append(_ crc: UInt64) {
            withUnsafeBytes(of: crc.littleEndian) { sums.packed.append(contentsOf: $0) }
        }
    }
}

/// The blocks of one state file checked so far in this run, so each is checked once however
/// often it is read.
///
/// Shared by the threads that look up in the file.
final class BlockCheck: Sendable {
    let path: String
    let sums: BlockSums
    private let checked: Mutex<[UInt64]>

    init(path: String, sums: BlockSums) {
        self.path = path
        self.sums = sums
        checked = Mutex([UInt64](repeating: 0, count: (sums.blocks + 63) / 64))
    }

    /// Checks the blocks that hold `range` of `bytes` (the file mapped whole), once each.
    func check(_ range: Range<Int>, of bytes: UnsafeRawBufferPointer) throws {
        try check(range) { block in
            Checksum.crc64(UnsafeRawBufferPointer(rebasing: bytes[sums.range(ofBlock: block)]))
        }
    }

    /// Checks the blocks that hold `range`, each block's sum worked out by `crc` (given the block).
    func check(_ range: Range<Int>, crc: (Int) throws -> UInt64) throws {
        guard range.upperBound <= sums.length else {
            throw StateDamageError(what: "\(StateFolder.name(path)) is shorter than its manifest says")
        }
        guard !range.isEmpty else { return }
        for block in (range.lowerBound / BlockSums.blockSize)...((range.upperBound - 1) / BlockSums.blockSize) {
            let (word, bit) = (block / 64, UInt64(1) << UInt64(block % 64))
            if checked.withLock({ $0[word] & bit != 0 }) { continue }
            guard try crc(block) == sums.sum(ofBlock: block) else {
                throw StateDamageError(what: "a block of \(StateFolder.name(path)) does not match its checksum")
            }
            checked.withLock { $0[word] |= bit }
        }
    }
}
