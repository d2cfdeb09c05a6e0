import Attribution
import Ingest
import Ledger
import Support

/// What the cost rows of some cost files add up to against one ledger: exact totals that merge
/// with the other partials' in any order, with everything the report needs besides (per-file
/// counts, checksums, rejects, and the request ids claimed first, to settle duplicates that
/// sit in two partials).
///
/// A partial is a pure function of the snapshot, its files, the report options and its seeds:
/// computed twice, it is the same.
package struct CostPartial: Sendable, Codable {
    package static let kind = "cost partial"
    package static let version = PackedVersions.costPartial

    /// What the totals depend on besides the rows; the merge refuses partials that differ.
    package var settings: PartialSettings
    /// The cost files read, in the snapshot's order (one, when it read a piece of it).
    package var files: [String]
    /// The piece of `files`' one file read, when it was split (`refund-cost split`).
    package var piece: FilePiece?
    /// What the files gave; credit rows not yet settled: they are settled once, over all
    /// partials, by the merge. (A FOCUS bill's outcome only in one process: a bill is spread
    /// over every usage row at once.)
    package var reading: ParallelCostReading.Result
    /// Request ids settled in another partial that this one counted as repeats.
    package var seeded: Int
    /// With the ledger cut by account, the number of groups this partial routed its rows to
    /// (`partial --route`): it read, checked and counted them; the groups' partials attribute them.
    package var routedTo: Int? = nil
    /// The group whose routed rows this partial attributed (`partial --group`), read from the
    /// routing partials it names: it read no cost file.
    package var routedGroup: RoutedGroup? = nil

    /// Reads `files` (all of them in one process; a group of whole files in a distributed run)
    /// through the pipeline, whose log takes their rejects.
    ///
    /// With `recordClaims`, files are read in order on one thread, so that the first row of
    /// each id is the one claimed (the order the merge settles by).
    package static func run(
        _ pipeline: Pipeline, _ loaded: LedgerLoad, files: [String], piece: PieceToRead? = nil, settings: PartialSettings,
        requestKey: SipHash, seeds: [RequestEntry] = [], recordClaims: Bool = false,
        progress: @escaping @Sendable (ReportProgress) -> Void = { _ in }
    ) throws -> CostPartial {
        let reading = try pipeline.attribute(
            loaded, with: pipeline.attributor(loaded), files: files, planned: piece.map { [$0.plan] },
            judgesHeaders: piece?.judgesHeader ?? true, threads: recordClaims ? 1 : pipeline.options.threads,
            registry: { RequestRegistry(hash: requestKey, seeds: seeds, recordsClaims: recordClaims) }, progress: progress)
        return CostPartial(settings: settings, files: files, piece: piece?.piece, reading: reading, seeded: seeds.count)
    }

    /// Ids claimed first here, by file: what settling duplicates across partials compares.
    package var claims: [(file: String, claims: BlockList<RequestClaim>)] {
        reading.summaries.map { ($0.path, $0.claims) }
    }
}

/// The group of accounts a group's partial attributed, and the routing partials whose rows of it
/// it read, by their MACs in sorted order.
package struct RoutedGroup: Sendable, Codable, Hashable {
    package var group: AccountGroup
    package var routings: [String]
}

/// A piece of a split cost file, as a partial reads it: which piece, and the part of the file
/// it covers with the whole file's size and checksum.
package struct PieceToRead: Sendable {
    package var piece: FilePiece
    package var plan: FileSplitter

    /// The first piece's reading says when the file's header is refused.
    var judgesHeader: Bool { piece.index == 0 }
}

/// What a partial's totals depend on besides its rows: the snapshot and the report options.
package struct PartialSettings: Sendable, Codable, Hashable {
    /// SHA-256 of the snapshot's content (empty when the ledger was built in the same process).
    package var snapshot: String
    /// The run's configuration (`RunConfiguration.fingerprint`): every option that changes a figure.
    package var configuration: String

    package init(snapshot: String, options: RunOptions) {
        self.snapshot = snapshot
        configuration = options.configuration.fingerprint
    }
}

extension CostPartial {
    /// Lets go of the request ids claimed: once settled, the merge reads none of them.
    mutating func dropClaims() {
        for index in reading.summaries.indices { reading.summaries[index].claims = [] }
    }

    /// Adds the totals into `sum` and lets go of them (the merge holds one partial's at a time).
    mutating func moveTotals(into sum: inout AttributionTotals) throws {
        do {
            try sum.merge(reading.totals)
        } catch {
            throw CostSumError(file: nil, underlying: error)
        }
        reading.totals = .empty
    }
}
