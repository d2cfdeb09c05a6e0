import Ingest
import Support

/// The block sums of every input file respond's state read (`BlockSums`), by the file's
/// number: what proves a file read before still holds the bytes read, or finds where it does
/// not.
///
/// Kept apart from the manifest (`sums.N`, named there with its SHA-256), so a run with
/// nothing new never reads them; read when a file is not as it was, and by `--full-check`.
struct InputSums: Sendable, Codable {
    static let kind = "respond input sums"
    static let version = PackedVersions.respondInputSums

    /// By file number; empty for a file taken out.
    var byFile: [BlockSums] = []

    struct Reference: Sendable, Codable, Hashable {
        var number: Int
        var sha256: String
    }

    subscript(file: Int) -> BlockSums {
        get { file < byFile.count ? byFile[file] : BlockSums() }
        set {
            if file >= byFile.count { byFile += Array(repeating: BlockSums(), count: file + 1 - byFile.count) }
            byFile[file] = newValue
        }
    }

    static func read(_ reference: Reference, in folder: String) throws -> InputSums {
        let path = folder + "/sums.\(reference.number)"
        do {
            let content = try PackedFile.read(path, kind: kind, version: version)
            guard content.withUnsafeBytes(SHA256.digest) == reference.sha256 else {
                throw StateDamageError(what: "sums.\(reference.number) is not the file its manifest names")
            }
            return try CompactCoder.decode(InputSums.self, from: content)
        } catch let damage as StateDamageError {
            throw damage
        } catch {
            throw StateDamageError(what: "sums.\(reference.number) cannot be read (\(error))")
        }
    }

    func write(in folder: String, number: Int) throws -> Reference {
        let content = try CompactCoder.encode(self)
        try PackedFile.write(content, kind: Self.kind, version: Self.version, to: folder + "/sums.\(number)", ownerOnly: true)
        return Reference(number: number, sha256: content.withUnsafeBytes(SHA256.digest))
    }
}
