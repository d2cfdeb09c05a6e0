import Support

/// Decoding: the App Store files in reading order, each with the checks it needs, decoded in
/// pieces on every core and handed on in file and line order.
extension AppStoreReader {
    /// Decodes the App Store files of `layout` named by `paths` (whole files, in the layout's
    /// order) into their pieces, keeping none: what a machine of a distributed run does for its
    /// group of files (`refund-cost decode`); `read(decoded:layout:)` then keeps them.
    ///
    /// `spans` reads a file as stored from a byte offset at a line's start (with the line
    /// number there) to an end: only what was appended since an earlier reading, up to the
    /// length the file had when it was looked at.
    ///
    /// `prepare` turns each piece into what `consume` takes, on the decoding threads (respond's
    /// state encodes the lines it keeps there).
    package func decode<Prepared: Sendable>(
        paths: [String], of layout: InputLayout, spans: [String: FileSpan] = [:],
        prepare: @escaping @Sendable (DecodedPart) throws -> Prepared, consume: (Prepared) throws -> Void
    ) throws {
        let wanted = Set(paths)
        let chosen = try files(layout).filter { wanted.contains($0.path) }.map { file in
            var file = file
            if let span = spans[file.path] {
                file.end = span.end
                if span.start > 0 {
                    file.start = span.start
                    file.firstLine = span.firstLine
                    // Part of a file: the record of verified files speaks of whole files only.
                    file.verifiedEarlier = nil
                    file.policy = options.signatures
                }
            }
            return file
        }
        try decode(chosen, prepare: prepare, consume: consume)
    }

    /// The same, each piece as it is decoded.
    package func decode(
        paths: [String], of layout: InputLayout, spans: [String: FileSpan] = [:], consume: (DecodedPart) throws -> Void
    ) throws {
        try decode(paths: paths, of: layout, spans: spans, prepare: { $0 }, consume: consume)
    }

    func decode(_ files: [AppStoreFile], consume: (DecodedPart) throws -> Void) throws {
        try decode(files, prepare: { $0 }, consume: consume)
    }

    func decode<Prepared: Sendable>(
        _ files: [AppStoreFile], prepare: @escaping @Sendable (DecodedPart) throws -> Prepared,
        consume: (Prepared) throws -> Void
    ) throws {
        // Decoding is most of the work: pieces of the files are decoded on all cores and kept
        // in file and line order as they come, so the result does not depend on threads and
        // only a few decoded pieces are in memory at a time.
        let parts = AppStoreParts(files: files, partSize: partSize)
        // Each distinct certificate chain is judged once, whichever thread meets it first.
        let verdicts = ChainVerdicts()
        try Parallel.ordered(
            threads: threads, window: 2 * threads, next: parts.next,
            transform: { part in try prepare(try DecodedPart.decode(part, verdicts: verdicts)) }, consume: consume)
    }

    /// The files in reading order, each with the checks it needs: a file an earlier run verified
    /// (same bytes, same settings) is decoded without them.
    func files(_ layout: InputLayout) throws -> [AppStoreFile] {
        let paths = layout.notificationFiles.map { ($0, true) } + layout.transactionFiles.map { ($0, false) }
        let policy = options.signatures
        var files = paths.map { AppStoreFile(path: $0.0, notifications: $0.1, policy: policy) }
        guard policy.verify, let known = verifiedFiles else { return files }
        // Looked up once a file (each lookup reads the file's size and time).
        let candidates = files.indices.compactMap { index in
            known.entry(for: files[index].path, policy: policy.fingerprint).map { (index: index, entry: $0) }
        }
        let candidatePaths = candidates.map { files[$0.index].path }
        // Whether the bytes are still those verified is known only from their checksum.
        let checksums = try Parallel.map(candidates.count, threads: FileSystem.processorCount) { position in
            try SHA256.file(candidatePaths[position])
        }
        for (position, candidate) in candidates.enumerated() where candidate.entry.sha256 == checksums[position] {
            files[candidate.index].policy.verify = false
            files[candidate.index].verifiedEarlier = candidate.entry
        }
        return files
    }
}
