import Ingest
import Support

/// Settles request ids claimed in more than one partial: the claim of the row that comes first
/// in the cost files' order (file, then line) stands, as it does when one process reads every
/// file in order; every other partial that claimed the id gets it as a seed and is computed
/// again, so that its rows with that id are counted as repeats (or conflicts).
///
/// Partials hold whole files, so the files' order and the line decide alone. Claims are added a
/// partial at a time and only the first claimant of an id is kept (about 40 bytes an id, and
/// every claimant of the few ids claimed twice), so a settle holds no partial's claims beyond
/// the one it is reading.
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
    private var partials = 0

    /// Adds the claims of the partial numbered `partial` whose ids are in `part`, by file.
    mutating func add(_ claimsByFile: [(file: String, claims: [RequestClaim])], partial: Int, in part: RequestPart) {
        partials = max(partials, partial + 1)
        for (file, claims) in claimsByFile {
            let fileID = fileIDs[file] ?? Int32(files.count)
            if fileID == Int32(files.count) {
                files.append(file)
                fileIDs[file] = fileID
            }
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
    }

    /// Per partial (by number), the seeds it must be computed again with; empty for most.
    ///
    /// Ids of different partitions never meet, so settling each partition apart and putting the
    /// seeds together gives the seeds of settling every id at once.
    func seeds(fileOrder: [String]) -> [[RequestEntry]] {
        let position = Dictionary(uniqueKeysWithValues: fileOrder.enumerated().map { ($1, $0) })
        let order = files.map { position[$0] ?? Int.max }
        var seeds = Array(repeating: [RequestEntry](), count: partials)
        for id in contested.keys.sorted() {
            let claimants = contested[id] ?? []
            guard let winner = claimants.min(by: { (order[Int($0.file)], $0.line) < (order[Int($1.file)], $1.line) })
            else { continue }
            for claimant in claimants where claimant.partial != winner.partial {
                seeds[Int(claimant.partial)].append(
                    RequestEntry(
                        route: UInt8(truncatingIfNeeded: id >> 64), key: UInt64(truncatingIfNeeded: id), content: winner.content))
            }
        }
        return seeds
    }

    /// Per partial (by position in `claimsByPartial`, each partial's claims by file), the seeds it
    /// must be computed again with, over the ids of `part`.
    static func seeds(
        _ claimsByPartial: [[(file: String, claims: [RequestClaim])]], fileOrder: [String], in part: RequestPart = .whole
    ) -> [[RequestEntry]] {
        var settlement = DuplicateSettlement()
        for (index, claims) in claimsByPartial.enumerated() { settlement.add(claims, partial: index, in: part) }
        var seeds = settlement.seeds(fileOrder: fileOrder)
        seeds += Array(repeating: [], count: claimsByPartial.count - seeds.count)
        return seeds
    }
}
