import Ingest
import Support
import Synchronization

/// What `refund-cost decode` writes: a group of whole App Store files, decoded and verified on
/// the machine that ran it, each file's pieces in line order, with what they were made from.
///
/// `snapshot --decoded` keeps the pieces of every group in the layout's file order, with the
/// same hygiene as a snapshot that reads the files itself: the same snapshot, and no machine
/// reads or verifies Apple's data twice. Each piece stays coded and gzipped until the snapshot
/// keeps it, so a `decode` holds its group's pieces at about a tenth of their coded size, and the
/// driver holds every group's so and one piece decoded at a time.
package struct DecodedFiles: Sendable, Codable {
    package static let kind = "decoded App Store files"
    package static let version = PackedVersions.decodedFiles

    /// The fingerprint of the options the App Store side is read with (`LedgerLoad.Options`).
    package var options: String
    /// The files decoded, in the layout's order.
    package var files: [DecodedFile]

    package struct DecodedFile: Sendable, Codable, Hashable {
        /// The file when it was decoded: its size, inode and the times its bytes and its inode
        /// last changed (a piece: when it was split, which the decode checked it still was).
        ///
        /// A file rewritten since, even to the same size, has other times (the inode's no one
        /// sets by hand), and a file put in its place another inode.
        package var identity: FileIdentity
        package var path: String { identity.path }
        /// The SHA-256 of the bytes decoded (what run.json lists), worked out as they were read.
        package var sha256: String
        /// Its notification and history lines.
        package var lines: Int
        /// Its pieces in line order, each coded as step files are, then gzipped.
        package var pieces: [[UInt8]]
        /// Set when only a piece of the file, cut by `split`, was decoded (`sha256` is then the
        /// whole file's, from the split).
        package var piece: FilePiece? = nil
    }

    /// Decodes `paths`, whole App Store files of `data`'s layout, on `threads` threads.
    package init(data: String, paths: [String], options: LedgerLoad.Options, threads: Int) throws {
        let layout = try InputLayout(root: data)
        let known = Set(layout.notificationFiles + layout.transactionFiles)
        let chosen = try paths.map { path -> String in
            if known.contains(path) { return path }
            let inside = layout.root + "/" + path
            guard known.contains(inside) else {
                throw DecodedFilesError.notAnAppStoreFile(path, known: (layout.notificationFiles + layout.transactionFiles))
            }
            return inside
        }
        // Each file as it is before it is read: a change while it is read is a change after.
        let before = Dictionary(uniqueKeysWithValues: chosen.map { ($0, FileIdentity(path: $0)) })
        // And what is read is that file: one swapped in while it is read is refused.
        for identity in before.values { identity.pin(saying: DecodedFilesError.changedWhileRead) }
        let coded = try Self.decode(chosen, of: layout, options: options, threads: threads)
        self.options = Self.fingerprint(options)
        files = (layout.notificationFiles + layout.transactionFiles).filter(Set(chosen).contains).map { path in
            DecodedFile(
                identity: before[path] ?? FileIdentity(path: path), sha256: coded[path]?.sha256 ?? "",
                lines: coded[path]?.lines ?? 0, pieces: coded[path]?.pieces ?? [])
        }
    }

    /// Decodes piece `index` of the App Store file `split` cut (`digest` names the split): its
    /// lines alone, with the file's line numbers, and the whole file's checksum from the split.
    ///
    /// Piece 0 is always decoded, even empty (an empty file is still a file read); a later empty
    /// piece holds nothing.
    package init(
        data: String, split: FileSplit, digest: String, piece index: Int, options: LedgerLoad.Options, threads: Int
    ) throws {
        let layout = try InputLayout(root: data)
        let path = split.path
        guard (layout.notificationFiles + layout.transactionFiles).contains(path) else {
            if layout.costFiles.contains(path) { throw DecodedFilesError.costFileSplit(path) }
            throw DecodedFilesError.notAnAppStoreFile(path, known: layout.notificationFiles + layout.transactionFiles)
        }
        guard FileIdentity(path: path) == split.identity else { throw DecodedFilesError.changedSinceSplit(path) }
        split.identity.pin(saying: DecodedFilesError.changedSinceSplit(path).diagnostic.message)
        let range = split.pieces[index]
        let span = FileSpan(start: range.start, firstLine: range.firstLine, end: range.end)
        let coded =
            index > 0 && range.start == range.end
            ? [:] : try Self.decode([path], of: layout, spans: [path: span], options: options, threads: threads)
        self.options = Self.fingerprint(options)
        files = [
            DecodedFile(
                identity: split.identity, sha256: split.sha256, lines: coded[path]?.lines ?? 0,
                pieces: coded[path]?.pieces ?? [], piece: FilePiece(split: digest, index: index, count: split.pieces.count))
        ]
    }

    /// Each file's lines, SHA-256 (of the bytes decoded) and pieces, coded and gzipped on the
    /// decoding threads as they are made.
    private static func decode(
        _ paths: [String], of layout: InputLayout, spans: [String: FileSpan] = [:], options: LedgerLoad.Options,
        threads: Int
    ) throws -> [String: (lines: Int, pieces: [[UInt8]], sha256: String)] {
        // Rejects travel inside the pieces (kept by the snapshot, in file and line order), so
        // this log only satisfies the reader.
        let reader = AppStoreReader(options: options.appStoreOptions, rejects: RejectLog(), threads: threads)
        var coded: [String: (lines: Int, pieces: [[UInt8]], sha256: String)] = [:]
        try reader.decode(
            paths: paths, of: layout, spans: spans,
            prepare: { part in
                (
                    part.path, part.notificationLines + part.historyLines, part.sha256,
                    try Gzip.compress(try CompactCoder.encode(part), name: part.path)
                )
            },
            consume: { path, lines, sha256, piece in
                coded[path, default: (0, [], "")].lines += lines
                coded[path, default: (0, [], "")].pieces.append(piece)
                if let sha256 { coded[path, default: (0, [], "")].sha256 = sha256 }
            })
        return coded
    }

    package static func fingerprint(_ options: LedgerLoad.Options) -> String {
        guard var bytes = try? CompactCoder.encode(options) else { return "" }
        return bytes.withUnsafeMutableBytes { SHA256.digest(UnsafeRawBufferPointer($0)) }
    }

    /// The pieces of `groups` (each a `decode` output and the path it was read from), handed
    /// over a file at a time in the file order of `layout`, after checking that they cover each
    /// of its App Store files once (whole, or every piece of one split), as it is now, with
    /// `options`.
    ///
    /// A decoding of the file as it was before (its size, inode or times differ from the file's
    /// now) is set aside when one of the file as it is covers it: a folder may hold a group
    /// decoded before the file changed beside the one decoded after.
    package static func pieces(
        _ groups: [(path: String, decoded: DecodedFiles)], layout: InputLayout, options: LedgerLoad.Options
    ) throws -> DecodedPieces {
        let wanted = fingerprint(options)
        let known = Set(layout.notificationFiles + layout.transactionFiles)
        var byFile: [String: [(group: String, file: DecodedFile)]] = [:]
        for (group, decoded) in groups {
            guard decoded.options == wanted else { throw DecodedFilesError.otherOptions(group) }
            for file in decoded.files {
                guard known.contains(file.path) else { throw DecodedFilesError.stray(file.path, group: group, data: layout.root) }
                byFile[file.path, default: []].append((group, file))
            }
        }
        var coded: [String: CodedFile] = [:]
        for path in layout.notificationFiles + layout.transactionFiles {
            guard let decodings = byFile[path] else { throw DecodedFilesError.missing(path) }
            // What can be checked without reading Apple's data again: its size, inode and two times.
            let now = FileIdentity(path: path)
            let current = decodings.filter { $0.file.identity == now }
            guard !current.isEmpty else {
                throw DecodedFilesError.changed(
                    path, groups: decodings.map(\.group), inPieces: decodings.contains { $0.file.piece != nil })
            }
            let reading = try oneReading(of: path, current)
            coded[path] = CodedFile(
                pieces: reading.flatMap { decoded in decoded.file.pieces.map { (decoded.group, $0) } },
                wholeFileSHA256: reading.first?.file.piece == nil ? nil : reading.first?.file.sha256)
        }
        let waiting = CodedPieces(coded)
        return DecodedPieces { path, keep in try waiting.take(path, keep) }
    }

    /// The decodings of one file, as it is now, that make one reading of it.
    ///
    /// The file whole, or every piece of one split in order. The same decoding twice (a task run
    /// again) counts once.
    private static func oneReading(of path: String, _ decodings: [(group: String, file: DecodedFile)]) throws
        -> [(group: String, file: DecodedFile)]
    {
        let whole = decodings.filter { $0.file.piece == nil }
        let cut = decodings.compactMap { decoded in decoded.file.piece.map { (piece: $0, decoded: decoded) } }
        if let last = whole.last {
            guard cut.isEmpty else {
                throw DecodedFilesError.wholeAndPieces(path, whole: whole.map(\.group), pieces: cut.map(\.decoded.group))
            }
            if whole.contains(where: { $0.file.lines != last.file.lines || $0.file.sha256 != last.file.sha256 }) {
                throw DecodedFilesError.twice(path, groups: whole.map(\.group))
            }
            return [last]
        }
        guard Set(cut.map(\.piece.split)).count == 1, let count = cut.first?.piece.count else {
            let first = cut.first?.piece.split
            throw DecodedFilesError.otherSplits(
                path, one: cut.filter { $0.piece.split == first }.map(\.decoded.group),
                other: cut.filter { $0.piece.split != first }.map(\.decoded.group))
        }
        var byIndex: [Int: (group: String, file: DecodedFile)] = [:]
        for (piece, decoded) in cut {
            if let earlier = byIndex[piece.index],
                earlier.file.lines != decoded.file.lines || earlier.file.pieces.count != decoded.file.pieces.count
            {
                throw DecodedFilesError.twice(path, groups: [earlier.group, decoded.group])
            }
            byIndex[piece.index] = decoded
        }
        return try (0..<count).map { index in
            guard let decoded = byIndex[index] else { throw DecodedFilesError.pieceMissing(path, index: index, count: count) }
            return decoded
        }
    }
}

/// A file's coded pieces in line order, and, when it was decoded in the pieces of a split, the
/// whole file's SHA-256: its last piece then ends the file, and no other does.
private struct CodedFile: Sendable {
    var pieces: [(group: String, coded: [UInt8])]
    var wholeFileSHA256: String?
}

/// Each file's coded pieces until the reader asks for them: then decoded one by one, and let go.
private final class CodedPieces: Sendable {
    private let coded: Mutex<[String: CodedFile]>

    init(_ coded: [String: CodedFile]) { self.coded = Mutex(coded) }

    func take(_ path: String, _ keep: (DecodedPart) throws -> Void) throws {
        guard var taken = coded.withLock({ $0.removeValue(forKey: path) }) else { return }
        for index in taken.pieces.indices {
            let group = taken.pieces[index].group
            var piece: DecodedPart
            do {
                piece = try CompactCoder.decode(
                    DecodedPart.self, from: try Gzip.decompress(taken.pieces[index].coded, name: path))
            } catch {
                throw PackedFileError(path: group, problem: "a piece of \(path) cannot be read (\(error))")
            }
            taken.pieces[index].coded = []
            if let sha256 = taken.wholeFileSHA256 {
                // Each decode ended its own piece of the file; the file ends once, at the last.
                piece.endsFile = index == taken.pieces.count - 1
                piece.sha256 = piece.endsFile ? sha256 : nil
            }
            try keep(piece)
        }
    }
}

/// Decoded groups that do not make one snapshot.
enum DecodedFilesError: DiagnosticError {
    /// Decoded files, named, the first few.
    static func named(_ groups: [String]) -> String {
        let unique = Array(Set(groups)).sorted()
        return unique.prefix(3).joined(separator: ", ") + (unique.count > 3 ? " and \(unique.count - 3) more" : "")
    }

    /// What a decode says of a file that changed while it read it (`PinnedFiles`).
    static let changedWhileRead =
        "the file changed while it was decoded (its size, its inode, or the time its bytes or its inode changed, "
        + "differs): decode it again once nothing writes it"

    case notAnAppStoreFile(String, known: [String])
    case stray(String, group: String, data: String)
    case otherOptions(String)
    case twice(String, groups: [String])
    case missing(String)
    case changed(String, groups: [String], inPieces: Bool)
    case changedSinceSplit(String)
    case wholeAndPieces(String, whole: [String], pieces: [String])
    case otherSplits(String, one: [String], other: [String])
    case costFileSplit(String)
    case pieceMissing(String, index: Int, count: Int)

    package var diagnostic: Diagnostic {
        switch self {
        case .notAnAppStoreFile(let path, let known):
            Diagnostic(
                "not an App Store file of the data (notifications/ or transactions/)"
                    + (known.isEmpty ? "" : "; they are: " + known.joined(separator: ", ")), file: path)
        case .stray(let path, let group, let data):
            Diagnostic(
                "\(group) decoded \(path), which is not an App Store file of --data \(data) now (decoded with another "
                    + "--data, or a file gone since): give every step the same --data, and remove \(group) if the file is gone")
        case .otherOptions(let group):
            Diagnostic(
                "decoded with other options (as-of time, environment, trust roots, app ids or verification): give every step "
                    + "the same options, and decode it again", file: group)
        case .twice(let path, let groups):
            Diagnostic(
                "decoded in \(Self.named(groups)), and they differ: decode it in one group, and remove the others' decoded files",
                file: path)
        case .missing(let path): Diagnostic("no group decoded this App Store file: decode it before the snapshot", file: path)
        case .changed(let path, let groups, let inPieces):
            Diagnostic(
                "the file changed since \(Self.named(groups)) decoded it (its size, its inode, or the time its bytes or its "
                    + "inode changed, differs): "
                    + (inPieces ? "split it again, then decode every piece" : "decode it again")
                    + " (decodings of the file as it was are then set aside)", file: path)
        case .changedSinceSplit(let path):
            Diagnostic(
                "the file changed since it was split (its size, its inode, or the time its bytes or its inode changed, "
                    + "differs): split it again, then decode every piece", file: path)
        case .wholeAndPieces(let path, let whole, let pieces):
            Diagnostic(
                "decoded whole in \(Self.named(whole)) and in pieces in \(Self.named(pieces)): decode it one way, and "
                    + "remove the others' decoded files", file: path)
        case .otherSplits(let path, let one, let other):
            Diagnostic(
                "decoded in pieces of two different splits of this file, one in \(Self.named(one)), the other in "
                    + "\(Self.named(other)): decode every piece of one split, and remove the other's decoded files",
                file: path)
        case .costFileSplit(let path):
            Diagnostic(
                "this is a cost file, not an App Store file: `partial --split S --piece K` reads the pieces of a cost "
                    + "file; decode reads those of a notification or transaction file", file: path)
        case .pieceMissing(let path, let index, let count):
            Diagnostic(
                "no group decoded piece \(index) of the \(count) of its split: decode every piece before the snapshot",
                file: path)
        }
    }
}
