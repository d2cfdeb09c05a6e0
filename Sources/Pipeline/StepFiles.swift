import Attribution
import Ingest
import Support

/// Ledger snapshots and cost partials on disk: the compact binary form inside a packed file (a header with kind,
/// format version and SHA-256, then gzip), so a task never reads a stale or damaged step.
package enum StepFiles {
    package static func write(_ snapshot: LedgerSnapshot, to path: String) throws {
        try PackedFile.write(
            try CompactCoder.encode(snapshot), kind: LedgerSnapshot.kind, version: LedgerSnapshot.version, to: path)
    }

    /// The snapshot and the SHA-256 of its content (what partials name it by).
    package static func readSnapshot(_ path: String) throws -> (snapshot: LedgerSnapshot, sha256: String) {
        let content = try PackedFile.read(path, kind: LedgerSnapshot.kind, version: LedgerSnapshot.version)
        let snapshot = try decode(LedgerSnapshot.self, from: content, path: path)
        return (snapshot, content.withUnsafeBytes(SHA256.digest))
    }

    package static func write(_ partial: CostPartial, to path: String) throws {
        try PackedFile.write(
            try CompactCoder.encode(PartialFile(partial)), kind: CostPartial.kind, version: CostPartial.version, to: path)
    }

    package static func readPartial(_ path: String) throws -> CostPartial {
        let content = try PackedFile.read(path, kind: CostPartial.kind, version: CostPartial.version)
        return try decode(PartialFile.self, from: content, path: path).partial
    }

    package static func write(seeds: [RequestEntry], to path: String) throws {
        try PackedFile.write(try CompactCoder.encode(SeedsFile(seeds)), kind: SeedsFile.kind, version: 1, to: path)
    }

    package static func readSeeds(_ path: String) throws -> [RequestEntry] {
        let content = try PackedFile.read(path, kind: SeedsFile.kind, version: 1)
        return try decode(SeedsFile.self, from: content, path: path).entries
    }

    private static func decode<T: Decodable>(_ type: T.Type, from content: [UInt8], path: String) throws -> T {
        do {
            return try CompactCoder.decode(type, from: content)
        } catch {
            throw PackedFileError(path: path, problem: "its content cannot be read (\(error))")
        }
    }
}

/// A partial as stored: its request claims as one block of bytes (24 each: the 16-byte entry,
/// then the line), not as millions of small values.
private struct PartialFile: Codable {
    var settings: PartialSettings
    var files: [String]
    var totals: AttributionTotals
    var summaries: [CostFileSummary]
    var claims: [[UInt8]]
    var inputs: [InputFileRecord]
    var headerRejects: [Reject]
    var rowRejects: [Reject]
    var readSequentially: Bool
    var seeded: Int

    init(_ partial: CostPartial) {
        settings = partial.settings
        files = partial.files
        totals = partial.totals
        summaries = partial.summaries
        claims = partial.summaries.map { summary in
            var data: [UInt8] = []
            data.reserveCapacity(summary.claims.count * 24)
            for claim in summary.claims {
                appendLittleEndian(UInt64(truncatingIfNeeded: claim.entry.packedValue), to: &data)
                appendLittleEndian(UInt64(truncatingIfNeeded: claim.entry.packedValue >> 64), to: &data)
                appendLittleEndian(UInt64(claim.line), to: &data)
            }
            return data
        }
        inputs = partial.inputs
        headerRejects = partial.headerRejects
        rowRejects = partial.rowRejects
        readSequentially = partial.readSequentially
        seeded = partial.seeded
    }

    var partial: CostPartial {
        var summaries = self.summaries
        for index in summaries.indices where index < claims.count {
            let data = claims[index]
            summaries[index].claims = stride(from: 0, to: data.count - data.count % 24, by: 24).map { start in
                let low = readLittleEndian(data, at: start)
                let high = readLittleEndian(data, at: start + 8)
                let line = readLittleEndian(data, at: start + 16)
                return RequestClaim(entry: RequestEntry(packed: UInt128(high) << 64 | UInt128(low)), line: Int(line))
            }
        }
        return CostPartial(
            settings: settings, files: files, totals: totals, summaries: summaries, inputs: inputs,
            headerRejects: headerRejects, rowRejects: rowRejects, readSequentially: readSequentially, seeded: seeded)
    }
}

/// The ids a partial must count as repeats, settled in other partials.
private struct SeedsFile: Codable {
    static let kind = "request seeds"
    var packed: [UInt8]

    init(_ entries: [RequestEntry]) {
        packed = []
        packed.reserveCapacity(entries.count * 16)
        for entry in entries {
            appendLittleEndian(UInt64(truncatingIfNeeded: entry.packedValue), to: &packed)
            appendLittleEndian(UInt64(truncatingIfNeeded: entry.packedValue >> 64), to: &packed)
        }
    }

    var entries: [RequestEntry] {
        let data = packed
        return stride(from: 0, to: data.count - data.count % 16, by: 16).map { start in
            RequestEntry(
                packed: UInt128(readLittleEndian(data, at: start + 8)) << 64 | UInt128(readLittleEndian(data, at: start)))
        }
    }
}

private func appendLittleEndian(_ value: UInt64, to data: inout [UInt8]) {
    var value = value.littleEndian
    withUnsafeBytes(of: &value) { data.append(contentsOf: $0) }
}

private func readLittleEndian(_ bytes: [UInt8], at start: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in 0..<8 { value |= UInt64(bytes[start + index]) << (8 * UInt64(index)) }
    return value
}
