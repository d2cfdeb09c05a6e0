import Ingest
import Support

/// Settles request ids claimed in more than one partial: the claim of the row that comes first
/// in the cost files' order (file, then line) stands, as it does when one process reads every
/// file in order; every other partial that claimed the id gets it as a seed and is computed
/// again, so that its rows with that id are counted as repeats (or conflicts).
///
/// Partials hold whole files, so the files' order and the line decide alone.
enum DuplicateSettlement {
    /// Per partial (by position), the seeds it must be computed again with; empty for most.
    package static func seeds(_ partials: [CostPartial], fileOrder: [String]) -> [[RequestEntry]] {
        seeds(partials.map { claims(of: $0, in: .whole) }, fileOrder: fileOrder)
    }

    /// The claims of `partial` whose ids are in `part`, by file: what settling that partition
    /// keeps of it.
    package static func claims(of partial: CostPartial, in part: RequestPart) -> [(file: String, claims: [RequestClaim])] {
        partial.claims.map { file in (file.file, part.parts == 1 ? file.claims : file.claims.filter { part.contains($0.entry) }) }
    }

    /// Per partial (by position in `claims`, each partial's claims by file), the seeds it must be
    /// computed again with.
    ///
    /// Ids of different partitions never meet, so settling each partition apart and putting the
    /// seeds together gives the seeds of settling every id at once.
    package static func seeds(_ claimsByPartial: [[(file: String, claims: [RequestClaim])]], fileOrder: [String])
        -> [[RequestEntry]]
    {
        let position = Dictionary(uniqueKeysWithValues: fileOrder.enumerated().map { ($1, $0) })
        struct Claimant {
            var partial: Int
            var file: Int
            var line: Int
            var entry: RequestEntry
        }
        var first: [UInt128: Claimant] = [:]
        var contested: [UInt128: [Claimant]] = [:]
        for (index, partialClaims) in claimsByPartial.enumerated() {
            for (file, claims) in partialClaims {
                let order = position[file] ?? Int.max
                for claim in claims {
                    let claimant = Claimant(partial: index, file: order, line: claim.line, entry: claim.entry)
                    let id = claim.entry.idBits
                    if let earlier = first[id] {
                        contested[id, default: [earlier]].append(claimant)
                    } else {
                        first[id] = claimant
                    }
                }
            }
        }
        var seeds = Array(repeating: [RequestEntry](), count: claimsByPartial.count)
        for id in contested.keys.sorted() {
            let claimants = contested[id] ?? []
            guard let winner = claimants.min(by: { ($0.file, $0.line) < ($1.file, $1.line) }) else { continue }
            for claimant in claimants where claimant.partial != winner.partial {
                seeds[claimant.partial].append(claimant.entry.withContent(of: winner.entry))
            }
        }
        return seeds
    }
}
