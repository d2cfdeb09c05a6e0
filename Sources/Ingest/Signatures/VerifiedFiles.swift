import Support

/// A record of App Store files whose every signature was verified, so that a monthly run,
/// which re-reads the whole history, does not verify the same files again.
///
/// A file counts as already verified when its path, size and modification time match the
/// record, under the same trust settings (roots, app checks, environment). It is then read
/// without signature checks, its SHA-256 computed as it is read, and if that checksum is not
/// the one recorded, the file is read again with every check: nothing can slip in by keeping
/// a file's size and time. The record holds each file's signature counts, so a run that uses
/// it writes the same run.json as one that does not.
package struct VerifiedFiles: Sendable {
    /// One verified file.
    package struct Entry: Sendable, Hashable, Codable {
        package var path: String
        package var bytes: Int
        package var modified: Int64
        package var sha256: String
        package var policy: String
        package var verified: Int
        package var decoded: Int
        package var xcode: Int
    }

    /// Where the record lives.
    package let location: String
    private(set) var entries: [String: Entry] = [:]
    /// Why the record is not used (nil when it is): it is trusted to skip signature checks, so
    /// one that another user owns or that others can write is ignored, and never written.
    package private(set) var refusedBecause: String?

    /// The default place: `$XDG_CACHE_HOME/refund-cost/verified-files.tsv`, else under `~/.cache`.
    package static var defaultLocation: String? {
        if let cache = FileSystem.environment("XDG_CACHE_HOME"), !cache.isEmpty {
            return cache + "/refund-cost/verified-files.tsv"
        }
        if let home = FileSystem.environment("HOME"), !home.isEmpty { return home + "/.cache/refund-cost/verified-files.tsv" }
        return nil
    }

    /// Reads the record; a missing or unreadable one is an empty record (everything is verified).
    package init(location: String) {
        self.location = location
        let folder = location.lastIndex(of: "/").map { String(location[..<$0]) } ?? "."
        for path in [folder, location] {
            guard let owner = FileSystem.ownership(path) else { continue }
            if !owner.ownedByUser || owner.writableByOthers {
                refusedBecause =
                    "the record of verified files \(path) is \(owner.ownedByUser ? "writable by group or others" : "owned by another user"); "
                    + "it is not used, so every signature is checked (fix it with chown/chmod go-w, or --verified-files none)"
                return
            }
        }
        guard FileSystem.kind(location) == .regularFile else { return }
        try? LineReader.read(path: location) { _, bytes in
            let fields = String(decoding: bytes, as: UTF8.self).split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 8, let size = Int(fields[1]), let modified = Int64(fields[2]), let verified = Int(fields[5]),
                let decoded = Int(fields[6]), let xcode = Int(fields[7])
            else { return }
            let entry = Entry(
                path: String(fields[0]), bytes: size, modified: modified, sha256: String(fields[3]), policy: String(fields[4]),
                verified: verified, decoded: decoded, xcode: xcode)
            entries[entry.path] = entry
        }
    }

    /// The entry for `path` if the file is unchanged (size and time) and was verified under `policy`.
    package func entry(for path: String, policy: String) -> Entry? {
        let absolute = FileSystem.resolvedPath(path)
        guard let entry = entries[absolute], entry.policy == Self.bound(policy), let status = FileSystem.status(absolute),
            status.bytes == entry.bytes, status.modified == entry.modified
        else { return nil }
        return entry
    }

    /// Records a file read with every signature verified and none refused.
    package mutating func record(path: String, sha256: String, policy: String, counts: SignatureCounts) {
        let absolute = FileSystem.resolvedPath(path)
        guard let status = FileSystem.status(absolute) else { return }
        entries[absolute] = Entry(
            path: absolute, bytes: status.bytes, modified: status.modified, sha256: sha256, policy: Self.bound(policy),
            verified: counts.verified, decoded: counts.unverifiedDecoded, xcode: counts.unverifiedXcode)
    }

    /// An entry holds only for the version of the tool and the trust settings that verified
    /// it: a new version, or another root, app or environment, checks every file again.
    static func bound(_ policy: String) -> String { "refund-cost " + ToolVersion.current + "|" + policy }

    /// Writes the record (atomically: a reader sees the old one or the new one); a refused
    /// record is left as it is.
    package func save() throws {
        guard refusedBecause == nil else { return }
        if let slash = location.lastIndex(of: "/") { try FileSystem.createDirectory(String(location[..<slash])) }
        let file = try AtomicFileWriter(path: location)
        for entry in entries.values.sorted(by: { $0.path < $1.path }) {
            let fields: [String] = [
                entry.path, String(entry.bytes), String(entry.modified), entry.sha256, entry.policy, String(entry.verified),
                String(entry.decoded), String(entry.xcode),
            ]
            try file.append(fields.joined(separator: "\t") + "\n")
        }
        try file.commit()
    }
}
