import Ingest
import Support

/// A cost file or an App Store file cut into pieces at record boundaries (`refund-cost split`),
/// so that partials read pieces of one large cost file, and decodes pieces of one large App
/// Store file, on several machines instead of the whole file in one task.
///
/// It carries what only a reading of the whole file knows: where each piece starts (the first
/// record boundary at or after K/N of the file, even when a quoted field of a CSV file holds a
/// newline) and on which line, and the file's SHA-256 for `run.json`. Each piece's task is then
/// bound by its piece's bytes, whatever the file's size.
package struct FileSplit: Sendable, Codable, Hashable {
    package static let kind = "file split"
    package static let version = PackedVersions.fileSplit

    /// The file as the snapshot lists it, and what it was when it was read (size and the times
    /// its bytes and its inode changed): a partial refuses a split of a file that is not, now
    /// and at the snapshot, this file.
    package var identity: FileIdentity
    package var sha256: String
    /// Exactly as many as asked for; an empty piece starts where the next one does.
    package var pieces: [FilePart]

    package var path: String { identity.path }

    /// Reads `path` once; refuses a file that changed while it was read.
    ///
    /// `records` is where its records may end (`FileSplitter.Records`).
    package static func make(path: String, pieces count: Int, records: FileSplitter.Records) throws -> FileSplit {
        let before = FileIdentity(path: path)
        let split = try FileSplitter.pieces(path: path, count: count, records: records)
        guard FileIdentity(path: path) == before, split.size == before.bytes else {
            throw SplitFileChangedError(path: path)
        }
        return FileSplit(identity: before, sha256: split.sha256, pieces: split.parts)
    }

    /// Refuses `index` when this split, read from `splitPath`, has no such piece.
    func requirePiece(_ index: Int, splitPath: String) throws {
        guard pieces.indices.contains(index) else {
            throw PackedFileError(
                path: splitPath,
                problem: "it cuts \(path) in \(pieces.count) pieces, numbered 0 to \(pieces.count - 1), not into a piece \(index)"
            )
        }
    }

    /// What a partial of piece `index` reads: the file's size and checksum with that piece alone.
    func plan(piece index: Int) -> FileSplitter {
        FileSplitter(path: path, size: identity.bytes ?? 0, sha256: sha256, parts: [pieces[index]])
    }
}

/// Which piece of a split file a partial or a decode read.
package struct FilePiece: Sendable, Codable, Hashable {
    /// SHA-256 of the split's content: every piece of a file must come from one split.
    package var split: String
    package var index: Int
    package var count: Int

    package var description: String { "piece \(index) of \(count)" }
}

/// The piece a partial or a decode is asked to read: the split file (`refund-cost split`'s) and
/// its number.
package struct PieceWanted: Sendable {
    package var split: String
    package var index: Int

    package init(split: String, index: Int) {
        self.split = split
        self.index = index
    }
}

/// A file that changed while `split` read it.
struct SplitFileChangedError: DiagnosticError {
    var path: String

    var diagnostic: Diagnostic {
        Diagnostic(
            "this file changed while it was split (its size, its inode, or the time its bytes or its inode changed, differs): "
                + "split it again once it is final, and make the snapshot after that", file: path)
    }
}
