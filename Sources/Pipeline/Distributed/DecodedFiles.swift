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
        package var path: String
        /// Its size when it was decoded.
        package var bytes: Int
        /// The times its bytes and its inode last changed when it was decoded: a file rewritten
        /// since, even to the same size, has others (the inode's time no one sets by hand).
        package var modified: Int64
        package var changed: Int64
        /// The SHA-256 of the bytes decoded (what run.json lists), worked out as they were read.
        package var sha256: String
        /// Its notification and history lines.
        package var lines: Int
        /// Its pieces in line order, each coded as step files are, then gzipped.
        package var pieces: [[UInt8]]
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
        // Rejects travel inside the pieces (kept by the snapshot, in file and line order), so
        // this log only satisfies the reader.
        let reader = AppStoreReader(options: options.appStoreOptions, rejects: RejectLog(), threads: threads)
        // Each piece coded and gzipped on the decoding threads as it is made.
        // Each file as it is before it is read: a change while it is read is a change after.
        let before = Dictionary(uniqueKeysWithValues: chosen.map { ($0, FileSystem.identity($0)) })
        var coded: [String: (lines: Int, pieces: [[UInt8]], sha256: String)] = [:]
        try reader.decode(
            paths: chosen, of: layout,
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
        self.options = Self.fingerprint(options)
        files = (layout.notificationFiles + layout.transactionFiles).filter(Set(chosen).contains).map { path in
            let identity = before[path] ?? nil
            return DecodedFile(
                path: path, bytes: identity?.bytes ?? 0, modified: identity?.modified ?? 0, changed: identity?.changed ?? 0,
                sha256: coded[path]?.sha256 ?? "", lines: coded[path]?.lines ?? 0, pieces: coded[path]?.pieces ?? [])
        }
    }

    package static func fingerprint(_ options: LedgerLoad.Options) -> String {
        guard var bytes = try? CompactCoder.encode(options) else { return "" }
        return bytes.withUnsafeMutableBytes { SHA256.digest(UnsafeRawBufferPointer($0)) }
    }

    /// The pieces of `groups` (each a `decode` output and the path it was read from), handed
    /// over a file at a time in the file order of `layout`, after checking that they cover each
    /// of its App Store files once, as it is now, with `options`.
    package static func pieces(
        _ groups: [(path: String, decoded: DecodedFiles)], layout: InputLayout, options: LedgerLoad.Options
    ) throws -> DecodedPieces {
        let wanted = fingerprint(options)
        var byFile: [String: (group: String, file: DecodedFile)] = [:]
        for (group, decoded) in groups {
            guard decoded.options == wanted else { throw DecodedFilesError.otherOptions }
            for file in decoded.files {
                // A group decoded twice (a task run again) holds the same pieces: one copy counts.
                if let earlier = byFile[file.path]?.file, earlier.bytes != file.bytes || earlier.lines != file.lines {
                    throw DecodedFilesError.twice(file.path)
                }
                byFile[file.path] = (group, file)
            }
        }
        var coded: [String: (group: String, pieces: [[UInt8]])] = [:]
        for path in layout.notificationFiles + layout.transactionFiles {
            guard let decoded = byFile.removeValue(forKey: path) else { throw DecodedFilesError.missing(path) }
            // What can be checked without reading Apple's data again: its size and its two times.
            guard let now = FileSystem.identity(path), now.bytes == decoded.file.bytes,
                now.modified == decoded.file.modified, now.changed == decoded.file.changed
            else { throw DecodedFilesError.changed(path) }
            coded[path] = (decoded.group, decoded.file.pieces)
        }
        if let stray = byFile.keys.sorted().first { throw DecodedFilesError.notAnAppStoreFile(stray, known: []) }
        let waiting = CodedPieces(coded)
        return DecodedPieces { path, keep in try waiting.take(path, keep) }
    }
}

/// Each file's coded pieces until the reader asks for them: then decoded one by one, and let go.
private final class CodedPieces: Sendable {
    private let coded: Mutex<[String: (group: String, pieces: [[UInt8]])]>

    init(_ coded: [String: (group: String, pieces: [[UInt8]])]) { self.coded = Mutex(coded) }

    func take(_ path: String, _ keep: (DecodedPart) throws -> Void) throws {
        guard var taken = coded.withLock({ $0.removeValue(forKey: path) }) else { return }
        for index in taken.pieces.indices {
            let piece: DecodedPart
            do {
                piece = try CompactCoder.decode(DecodedPart.self, from: try Gzip.decompress(taken.pieces[index], name: path))
            } catch {
                throw PackedFileError(path: taken.group, problem: "a piece of \(path) cannot be read (\(error))")
            }
            taken.pieces[index] = []
            try keep(piece)
        }
    }
}

/// Decoded groups that do not make one snapshot.
enum DecodedFilesError: DiagnosticError {
    case notAnAppStoreFile(String, known: [String])
    case otherOptions
    case twice(String)
    case missing(String)
    case changed(String)

    package var diagnostic: Diagnostic {
        switch self {
        case .notAnAppStoreFile(let path, let known):
            Diagnostic(
                "not an App Store file of the data (notifications/ or transactions/)"
                    + (known.isEmpty ? "" : "; they are: " + known.joined(separator: ", ")), file: path)
        case .otherOptions:
            Diagnostic(
                "a group was decoded with other options (as-of time, environment, trust roots, app ids or verification); "
                    + "give every step the same options")
        case .twice(let path): Diagnostic("two groups decoded this file, and they differ: decode it in one group", file: path)
        case .missing(let path): Diagnostic("no group decoded this App Store file: decode it before the snapshot", file: path)
        case .changed(let path):
            Diagnostic(
                "the file changed since it was decoded (its size, or the time its bytes or its inode changed, differs): "
                    + "decode it again", file: path)
        }
    }
}
