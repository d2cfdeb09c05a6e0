import Ingest
import Support

/// Settles request ids claimed in more than one partial: the claim of the row that comes first
/// in the cost files' order (file, then line) stands, as it does when one process reads every
/// file in order; every other partial that claimed the id gets it as a seed, with where the
/// standing claim is, and is computed again, so that its rows with that id are counted as
/// repeats (or conflicts).
///
/// Partials hold whole files or pieces of one (whose lines are the file's), so the files' order
/// and the line decide alone. Claims are added a partial at a time and kept on disk, sorted by
/// id (`ClaimRuns`), then read back merged by id: a settle holds one partial's claims while it
/// adds them and a block of each partial's while it settles, whatever the number of ids. The
/// seeds a partial was computed with are checked too: each must still stand where it was
/// settled (a cost file changed since would leave a row counted by no one).
struct DuplicateSettlement {
    private let runs: ClaimRuns
    private var files: [String] = []
    private var fileIDs: [String: Int32] = [:]
    /// The partials that read each file (by file id), by piece (`whole` for the whole file).
    private var readers: [[Int: Int32]] = []
    private static let whole = -1
    /// The seeds each partial was computed with (by partial number), of the part settled, by id.
    private var applied: [UInt128: [(partial: Int, seed: SeededClaim)]] = [:]
    private var partials = 0

    init() throws {
        runs = try ClaimRuns()
    }

    /// Adds the claims (by file) of the partial numbered `partial` whose ids are in `part`, and
    /// the seeds it was computed with.
    ///
    /// Refuses a file (or a piece of one) another partial read too, and a file read whole by one
    /// partial and in pieces by another. Partials are added in the order of their numbers.
    mutating func add(
        _ claimsByFile: [(file: String, claims: BlockList<RequestClaim>)], piece: FilePiece? = nil,
        seeded: [SeededClaim] = [], partial: Int, in part: RequestPart
    ) throws {
        partials = max(partials, partial + 1)
        let key = piece?.index ?? Self.whole
        var claimed: [ClaimRuns.Claim] = []
        // Those of `part`: about its share of them all, grown beyond only if the hash is uneven.
        claimed.reserveCapacity(claimsByFile.reduce(0) { $0 + $1.claims.count } / part.parts + 1024)
        for (file, claims) in claimsByFile {
            let fileID = fileIDs[file] ?? Int32(files.count)
            if fileID == Int32(files.count) {
                files.append(file)
                fileIDs[file] = fileID
                readers.append([:])
            }
            let read = readers[Int(fileID)]
            let elsewhere = read.contains {
                $0.value != Int32(partial) && ($0.key == key || $0.key == Self.whole || key == Self.whole)
            }
            if elsewhere, let piece, read[key] != nil { throw MergeError.pieceTwice(file, piece) }
            if elsewhere, read.keys.contains(Self.whole) != (key == Self.whole) || read.count > 1 {
                throw MergeError.wholeAndPieces(file)
            }
            guard !elsewhere else { throw MergeError.fileTwice(file) }
            readers[Int(fileID)][key] = Int32(partial)
            for claim in claims where part.contains(claim.entry) {
                claimed.append(
                    ClaimRuns.Claim(
                        id: claim.entry.idBits, partial: Int32(partial), file: fileID, line: claim.line,
                        content: claim.entry.content))
            }
        }
        try runs.add(&claimed)
        for seed in seeded where part.contains(seed.entry) { applied[seed.entry.idBits, default: []].append((partial, seed)) }
    }

    /// What settling every id added gives: the partials (by number) computed with a seed that no
    /// longer stands (no other partial claims its id, with its content, at the file and line it
    /// was settled for), and per partial (by number) the seeds it must be computed again with,
    /// empty for most.
    ///
    /// Ids of different partitions never meet, so settling each partition apart and putting the
    /// seeds together gives the seeds of settling every id at once.
    func settle(fileOrder: [String]) throws -> (stale: [Int], seeds: [[SeededClaim]]) {
        let position = Dictionary(fileOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let order = files.map { position[$0] ?? Int.max }
        var seeds = Array(repeating: [SeededClaim](), count: partials)
        var stale = Set<Int>()
        var claimedSeeds = Set<UInt128>()
        try runs.merged { id, claimants in
            if let seeded = applied[id] {
                claimedSeeds.insert(id)
                // The first partial to claim it (in the partials' order) must still claim it there.
                let first = claimants[0]
                for (partial, seed) in seeded
                where Int(first.partial) == partial || files[Int(first.file)] != seed.file || first.line != seed.line
                    || first.content != seed.entry.content
                {
                    stale.insert(partial)
                }
            }
            guard claimants.count > 1,
                let winner = claimants.min(by: { (order[Int($0.file)], $0.line) < (order[Int($1.file)], $1.line) })
            else { return }
            let entry = RequestEntry(
                route: UInt8(truncatingIfNeeded: id >> 64), key: UInt64(truncatingIfNeeded: id), content: winner.content)
            for claimant in claimants where claimant.partial != winner.partial {
                seeds[Int(claimant.partial)].append(SeededClaim(entry: entry, file: files[Int(winner.file)], line: winner.line))
            }
        }
        // A seed whose id no partial claims any more.
        for (id, seeded) in applied where !claimedSeeds.contains(id) { stale.formUnion(seeded.map(\.partial)) }
        return (stale.sorted(), seeds)
    }
}

/// A seed: the id settled in another partial, with the content of the row that stands and
/// where that row is.
package struct SeededClaim: Sendable, Hashable, Codable {
    package var entry: RequestEntry
    package var file: String
    package var line: Int
}
