import Ingest
import Support

/// What `refund-cost decode` writes: a group of whole App Store files, decoded and verified on
/// the machine that ran it, piece by piece in line order, with what they were made from.
///
/// `snapshot --decoded` keeps the pieces of every group in the layout's file order, with the
/// same hygiene as a snapshot that reads the files itself: the same snapshot, and no machine
/// reads or verifies Apple's data twice.
package struct DecodedFiles: Sendable, Codable {
    package static let kind = "decoded App Store files"
    package static let version = 1

    /// The fingerprint of the options the App Store side is read with (`LedgerLoad.Options`).
    package var options: String
    /// The files decoded, in the layout's order, with the size each had.
    package var files: [DecodedFile]
    package var parts: [DecodedPart]

    package struct DecodedFile: Sendable, Codable, Hashable {
        package var path: String
        package var bytes: Int
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
        var parts: [DecodedPart] = []
        try reader.decode(paths: chosen, of: layout) { parts.append($0) }
        self.options = Self.fingerprint(options)
        files = (layout.notificationFiles + layout.transactionFiles).filter(Set(chosen).contains).map {
            DecodedFile(path: $0, bytes: FileSystem.fileSize($0) ?? 0)
        }
        self.parts = parts
    }

    package static func fingerprint(_ options: LedgerLoad.Options) -> String {
        guard var bytes = try? CompactCoder.encode(options) else { return "" }
        return bytes.withUnsafeMutableBytes { SHA256.digest(UnsafeRawBufferPointer($0)) }
    }

    /// Every piece of `groups` (each a `decode` output), in the file order of `layout`, after
    /// checking that they cover each of its App Store files once, as it is now, with `options`.
    package static func pieces(_ groups: [DecodedFiles], layout: InputLayout, options: LedgerLoad.Options) throws
        -> [DecodedPart]
    {
        let wanted = fingerprint(options)
        var byFile: [String: (file: DecodedFile, parts: [DecodedPart])] = [:]
        for group in groups {
            guard group.options == wanted else { throw DecodedFilesError.otherOptions }
            let partsByFile = Dictionary(grouping: group.parts, by: \.path)
            for file in group.files {
                // A group decoded twice (a task run again) holds the same pieces: one copy counts.
                if let earlier = byFile[file.path], earlier.file != file { throw DecodedFilesError.twice(file.path) }
                byFile[file.path] = (file, partsByFile[file.path] ?? [])
            }
        }
        var parts: [DecodedPart] = []
        for path in layout.notificationFiles + layout.transactionFiles {
            guard let decoded = byFile.removeValue(forKey: path) else { throw DecodedFilesError.missing(path) }
            guard FileSystem.fileSize(path) == decoded.file.bytes else { throw DecodedFilesError.changed(path) }
            parts += decoded.parts
        }
        if let stray = byFile.keys.sorted().first { throw DecodedFilesError.notAnAppStoreFile(stray, known: []) }
        return parts
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
            Diagnostic("the file changed since it was decoded (its size differs): decode it again", file: path)
        }
    }
}
