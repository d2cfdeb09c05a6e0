import Ingest
import Support

/// Settles request ids claimed in more than one partial: the claim of the row that comes first
/// in the cost files' order (file, then line) stands, as it does when one process reads every
/// file in order; every other partial that claimed the id gets it as a seed, with where the
/// standing claim is, and is computed again, so that its rows with that id are counted as
/// repeats (or conflicts).
///
/// Partials hold whole files or pieces of one (whose lines are the file's), so the files' order
/// and the line decide alone. Claims are added a
/// partial at a time and only the first claimant of an id is kept (about 40 bytes an id, and
/// every claimant of the few ids claimed twice), so a settle holds no partial's claims beyond
/// the one it is reading. The seeds a partial was computed with are checked too: each must
/// still stand where it was settled (a cost file changed since would leave a row counted by no
/// one).
struct DuplicateSettlement {
    private struct Claimant {
        var partial: Int32
        var file: Int32
        var line: Int
        var content: UInt32
    }

    private var first: [UInt128: Claimant] = [:]
    private var contested: [UInt128: [Claimant]] = [:]
    private var files: [String] = []
    private var fileIDs: [String: Int32] = [:]
    /// The partials that read each file (by file id), by piece (`whole` for the whole file).
    private var readers: [[Int: Int32]] = []
    private static let whole = -1
    /// The seeds each partial was computed with (by partial number), of the part settled.
    private var applied: [(partial: Int, seed: SeededClaim)] = []
    private var partials = 0

    /// Adds the claims (by file) of the partial numbered `partial` whose ids are in `part`, and
    /// the seeds it was computed with; refuses a file (or a piece of one) another partial read
    /// too, and a file read whole by one partial and in pieces by another.
    mutating func add(
        _ claimsByFile: [(file: String, claims: BlockList<RequestClaim>)], piece: CostPiece? = nil,
        seeded: [SeededClaim] = [], partial: Int, in part: RequestPart
    ) throws {
        partials = max(partials, partial + 1)
        let key = piece?.index ?? Self.whole
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
            guard !elsewhere else { throw MergeError.fileTwice(file) }
            readers[Int(fileID)][key] = Int32(partial)
            for claim in claims where part.contains(claim.entry) {
                let claimant = Claimant(partial: Int32(partial), file: fileID, line: claim.line, content: claim.entry.content)
                let id = claim.entry.idBits
                if let earlier = first[id] {
                    contested[id, default: [earlier]].append(claimant)
                } else {
                    first[id] = claimant
                }
            }
        }
        applied += seeded.filter { part.contains($0.entry) }.map { (partial, $0) }
    }

    /// The partials (by number) computed with a seed that no longer stands: no other partial
    /// claims its id, with its content, at the file and line it was settled for.
    func stalePartials() -> [Int] {
        var stale = Set<Int>()
        for (partial, seed) in applied {
            guard let claimant = first[seed.entry.idBits], Int(claimant.partial) != partial,
                files[Int(claimant.file)] == seed.file, claimant.line == seed.line, claimant.content == seed.entry.content
            else {
                stale.insert(partial)
                continue
            }
        }
        return stale.sorted()
    }

    /// Per partial (by number), the seeds it must be computed again with; empty for most.
    ///
    /// Ids of different partitions never meet, so settling each partition apart and putting the
    /// seeds together gives the seeds of settling every id at once.
    func seeds(fileOrder: [String]) -> [[SeededClaim]] {
        let position = Dictionary(fileOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let order = files.map { position[$0] ?? Int.max }
        var seeds = Array(repeating: [SeededClaim](), count: partials)
        for id in contested.keys.sorted() {
            let claimants = contested[id] ?? []
            guard let winner = claimants.min(by: { (order[Int($0.file)], $0.line) < (order[Int($1.file)], $1.line) })
            else { continue }
            let entry = RequestEntry(
                route: UInt8(truncatingIfNeeded: id >> 64), key: UInt64(truncatingIfNeeded: id), content: winner.content)
            for claimant in claimants where claimant.partial != winner.partial {
                seeds[Int(claimant.partial)].append(SeededClaim(entry: entry, file: files[Int(winner.file)], line: winner.line))
            }
        }
        return seeds
    }
}

/// A seed: the id settled in another partial, with the content of the row that stands and
/// where that row is.
package struct SeededClaim: Sendable, Hashable, Codable {
    package var entry: RequestEntry
    package var file: String
    package var line: Int
}
