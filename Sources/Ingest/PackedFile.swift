import Support

/// The container of the files the tool writes for itself between steps (ledger snapshots,
/// partial totals): a text header that says what the file is, its format version and the
/// SHA-256 of its content, then the content gzipped.
///
/// A file of another kind or version, cut short or altered is refused with what it is, so a
/// task never computes from a stale or damaged step.
package enum PackedFile {
    /// With `ownerOnly`, the file is readable by its owner alone (respond's state).
    package static func write(_ content: [UInt8], kind: String, version: Int, to path: String, ownerOnly: Bool = false) throws {
        let header = "refund-cost \(kind) \(version)\nsha256 \(content.withUnsafeBytes(SHA256.digest))\n"
        // A step's work folder is made as the report's output folder is: the user names it, the tool makes it.
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try FileSystem.createDirectory(String(path[..<slash]))
        }
        let file = try AtomicFileWriter(path: path, ownerOnly: ownerOnly)
        try file.append(Array(header.utf8))
        try file.append(try Gzip.compress(content, name: path))
        try file.commit()
    }

    package static func read(_ path: String, kind: String, version: Int) throws -> [UInt8] {
        let bytes = try FileDescriptor.readAll(path)
        let lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        let expected = "refund-cost \(kind) "
        guard lines.count == 3, let first = String(validating: lines[0], as: UTF8.self), first.hasPrefix(expected) else {
            throw PackedFileError(path: path, problem: "not a refund-cost \(kind) file")
        }
        guard first == expected + "\(version)" else {
            throw PackedFileError(
                path: path,
                problem:
                    "a \(kind) of format \(first.dropFirst(expected.count)), this refund-cost reads format \(version): make it again with this version"
            )
        }
        let checksum = String(decoding: lines[1], as: UTF8.self)
        let content = try Gzip.decompress(Array(lines[2]), name: path)
        guard checksum == "sha256 " + content.withUnsafeBytes(SHA256.digest) else {
            throw PackedFileError(path: path, problem: "its content does not match its SHA-256 (a damaged or altered file)")
        }
        return content
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
