import Attribution
import Ingest
import Support

/// Ledger snapshots, cost partials, decoded pieces and request seeds on disk: the compact binary
/// form inside a packed file (a header with kind and format version, the MAC of the content
/// under the run's secret, then gzip), so a task never reads a stale, damaged or forged step.
package enum StepFiles {
    static let seedsKind = "request seeds"
    static let seedsVersion = PackedVersions.requestSeeds

    /// Writes the snapshot; returns the SHA-256 of its content (what partials name it by).
    ///
    /// Coded, hashed and compressed a piece at a time: the coded content, several times the
    /// size of the file, is never held whole.
    @discardableResult
    package static func write(_ snapshot: LedgerSnapshot, to path: String, secret: StepSecret) throws -> String {
        let hasher = SHA256()
        try PackedFile.write(kind: LedgerSnapshot.kind, version: LedgerSnapshot.version, to: path, secret: secret) { sink in
            try CompactCoder.encode(snapshot, pieces: 1 << 20) { piece in
                piece.withUnsafeBytes { hasher.update($0) }
                try sink(piece)
            }
        }
        return hasher.finish()
    }

    package static func write(_ group: GroupSnapshot, to path: String, secret: StepSecret) throws {
        try PackedFile.write(kind: GroupSnapshot.kind, version: GroupSnapshot.version, to: path, secret: secret) {
            try CompactCoder.encode(group, pieces: 1 << 20, to: $0)
        }
    }

    static func readGroupSnapshot(_ path: String, secret: StepSecret) throws -> GroupSnapshot {
        let content = try PackedFile.read(path, kind: GroupSnapshot.kind, version: GroupSnapshot.version, secret: secret)
        return try decode(GroupSnapshot.self, from: content, path: path)
    }

    /// The snapshot and the SHA-256 of its content (what partials name it by).
    ///
    /// Decoded as it is inflated: the coded content, several times the size of the file, is
    /// never held whole.
    package static func readSnapshot(_ path: String, secret: StepSecret) throws -> (snapshot: LedgerSnapshot, sha256: String) {
        let (snapshot, sha256, _) = try readDecoding(
            LedgerSnapshot.self, path: path, kind: LedgerSnapshot.kind, version: LedgerSnapshot.version, secret: secret)
        return (snapshot, sha256)
    }

    /// Writes the partial (without its claims) to `path`, then its claims and the seeds it was
    /// computed with to `path.claims`, named by the partial's MAC: claims left from another
    /// computation of the partial are refused.
    ///
    /// Returns the partial's MAC.
    @discardableResult
    package static func write(_ partial: CostPartial, seeds: [SeededClaim] = [], to path: String, secret: StepSecret) throws
        -> String
    {
        var shell = partial
        shell.dropClaims()
        let check = try PackedFile.write(
            try CompactCoder.encode(shell), kind: CostPartial.kind, version: CostPartial.version, to: path, secret: secret)
        let claims = PartialClaims(
            partial: check, snapshot: partial.settings.snapshot, piece: partial.piece,
            files: partial.claims.map { FileClaims(file: $0.file, claims: $0.claims) }, seeded: seeds)
        // One for every id the partial's files hold: coded and compressed as they are written.
        try PackedFile.write(
            kind: PartialClaims.kind, version: PartialClaims.version, to: PartialClaims.path(of: path), secret: secret
        ) {
            try CompactCoder.encode(claims, pieces: 1 << 20, to: $0)
        }
        return check
    }

    /// The claims written beside the partial at `partialPath`, refused unless they are that
    /// partial's (`check`, its MAC).
    static func readClaims(of partialPath: String, check: String, secret: StepSecret) throws -> PartialClaims {
        let path = PartialClaims.path(of: partialPath)
        guard FileSystem.exists(path) else {
            throw PackedFileError(
                path: path,
                problem:
                    "missing: every partial writes its request ids beside it (P.partial.claims, even a group's partial, "
                    + "whose are none); keep the two files together, or compute the partial again")
        }
        let content = try PackedFile.read(path, kind: PartialClaims.kind, version: PartialClaims.version, secret: secret)
        let claims = try decode(PartialClaims.self, from: content, path: path)
        guard claims.partial == check else {
            throw PackedFileError(
                path: path,
                problem:
                    "these request ids are not those of \(partialPath) (left from another computation of it): compute the partial again"
            )
        }
        return claims
    }

    /// The partial and its MAC (what its claims and a settlement record name it by).
    static func readPartialWithCheck(_ path: String, secret: StepSecret) throws -> (partial: CostPartial, check: String) {
        // Decoded as it is inflated, as a snapshot is: the merge reads the partials with the
        // whole ledger held, and a partial's content is tens of megabytes at a million accounts.
        let (partial, _, check) = try readDecoding(
            CostPartial.self, path: path, kind: CostPartial.kind, version: CostPartial.version, secret: secret)
        return (partial, check)
    }

    package static func write(_ split: FileSplit, to path: String, secret: StepSecret) throws {
        try PackedFile.write(
            try CompactCoder.encode(split), kind: FileSplit.kind, version: FileSplit.version, to: path, secret: secret)
    }

    /// The split and the SHA-256 of its content (what every piece's partial names it by).
    static func readSplit(_ path: String, secret: StepSecret) throws -> (split: FileSplit, sha256: String) {
        let content = try PackedFile.read(path, kind: FileSplit.kind, version: FileSplit.version, secret: secret)
        return (try decode(FileSplit.self, from: content, path: path), content.withUnsafeBytes(SHA256.digest))
    }

    package static func write(_ decoded: DecodedFiles, to path: String, secret: StepSecret) throws {
        try PackedFile.write(
            try CompactCoder.encode(decoded), kind: DecodedFiles.kind, version: DecodedFiles.version, to: path, secret: secret)
    }

    static func readDecoded(_ path: String, secret: StepSecret) throws -> DecodedFiles {
        let content = try PackedFile.read(path, kind: DecodedFiles.kind, version: DecodedFiles.version, secret: secret)
        return try decode(DecodedFiles.self, from: content, path: path)
    }

    package static func write(seeds: PartialSeeds, to path: String, secret: StepSecret) throws {
        try PackedFile.write(try CompactCoder.encode(seeds), kind: seedsKind, version: seedsVersion, to: path, secret: secret)
    }

    static func readSeeds(_ path: String, secret: StepSecret) throws -> PartialSeeds {
        let content = try PackedFile.read(path, kind: seedsKind, version: seedsVersion, secret: secret)
        return try decode(PartialSeeds.self, from: content, path: path)
    }

    package static func write(_ settlement: RequestSettlement, to path: String, secret: StepSecret) throws {
        try PackedFile.write(
            try CompactCoder.encode(settlement), kind: RequestSettlement.kind, version: RequestSettlement.version, to: path,
            secret: secret)
    }

    static func readSettlement(_ path: String, secret: StepSecret) throws -> RequestSettlement {
        let content = try PackedFile.read(path, kind: RequestSettlement.kind, version: RequestSettlement.version, secret: secret)
        return try decode(RequestSettlement.self, from: content, path: path)
    }

    /// The authenticated `kind` file at `path` decoded as it is inflated (`PackedFile.readStreaming`),
    /// the content's SHA-256 and the check that held.
    private static func readDecoding<T: Decodable>(
        _ type: T.Type, path: String, kind: String, version: Int, secret: StepSecret
    ) throws -> (value: T, sha256: String, check: String) {
        try PackedFile.readStreaming(path, kind: kind, version: version, secret: secret) { content in
            try decode(path: path) { try CompactCoder.decode(type, size: content.size ?? 0, from: content.read) }
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from content: [UInt8], path: String) throws -> T {
        try decode(path: path) { try CompactCoder.decode(type, from: content) }
    }

    /// What `decoding` returns, its error said as the file's (an error of the file itself, read as
    /// it is decoded, as it is).
    private static func decode<T>(path: String, _ decoding: () throws -> T) throws -> T {
        do {
            return try decoding()
        } catch let error as PackedFileError {
            throw error
        } catch {
            throw PackedFileError(path: path, problem: "its content cannot be read (\(error))")
        }
    }
}

/// The request ids a partial must count as claimed elsewhere, bound to that partial: its cost
/// files and its snapshot, so seeds settled for one partial are never taken by another (a seeds
/// file copied over another's would drop a row nobody else counts).
package struct PartialSeeds: Sendable, Codable, Hashable {
    package var files: [String]
    /// The piece of `files`' one file the partial read, when it was split.
    package var piece: FilePiece?
    package var snapshot: String
    /// The partition of the request ids these seeds settle (`settle --part`).
    package var part: RequestPart
    package var seeds: [SeededClaim]
}

/// The request ids a partial claimed first, by file, beside the partial (`P.claims`): only
/// `settle` and a merge without settlement records read them, so a merge never holds them.
package struct PartialClaims: Sendable, Codable {
    package static let kind = "request claims"
    package static let version = PackedVersions.requestClaims

    /// The MAC of the partial they were claimed by.
    package var partial: String
    /// SHA-256 of the snapshot the partial was computed against.
    package var snapshot: String
    /// The piece the partial read of its one file, when it was split: pieces of one file are
    /// read by several partials.
    package var piece: FilePiece?
    package var files: [FileClaims]
    /// The seeds the partial was computed with: settle checks that each still stands.
    package var seeded: [SeededClaim]

    package static func path(of partialPath: String) -> String { partialPath + ".claims" }

    var byFile: [(file: String, claims: BlockList<RequestClaim>)] { files.map { ($0.file, $0.claims) } }
}

package struct FileClaims: Sendable, Codable {
    package var file: String
    package var claims: BlockList<RequestClaim>
}

/// A file in a folder of step files whose name an error could not show as it is.
package struct StepFileNameError: DiagnosticError {
    package var path: String

    var isUTF8 = true

    /// The entries of a folder of step files whose names `wanted` takes, by name; refused when
    /// one of them holds a line break or another control character, or is not UTF-8: no step
    /// writes such a name, and one placed there could forge lines of what a step prints, or
    /// read as another file's name.
    package static func entries(of folder: String, named wanted: (String) -> Bool) throws -> [FileSystem.Entry] {
        let entries = try FileSystem.list(folder).filter { wanted($0.name) }
        if let odd = entries.first(where: { !$0.nameIsUTF8 || !Reject.isPrintable($0.name) }) {
            throw StepFileNameError(path: folder + "/" + odd.name, isUTF8: odd.nameIsUTF8)
        }
        return entries
    }

    package var diagnostic: Diagnostic {
        Diagnostic(
            (isUTF8
                ? "its name holds a line break or another control character (shown escaped)"
                : "its name is not UTF-8 (the bytes that are not are shown as U+FFFD)")
                + ": no step writes such a name; remove it",
            file: path)
    }
}
