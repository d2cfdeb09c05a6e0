import Ingest
import Support

/// What `settle --part K/N` found when no id of its partition was claimed in two partials:
/// partition K of these partials (by their MACs) is settled.
///
/// The merge reads one for every partition instead of every partial's claims, so it never holds
/// every request id of a run; a partial computed again to other content has another MAC, and
/// the record no longer covers it.
package struct RequestSettlement: Sendable, Codable, Hashable {
    package static let kind = "request settlement"
    package static let version = PackedVersions.requestSettlement
    /// What settle writes its record as, in the partials' folder.
    package static let suffix = "settled"

    /// SHA-256 of the snapshot's content.
    package var snapshot: String
    package var part: RequestPart
    /// The MAC of each partial (its check line), sorted.
    package var partials: [String]

    /// The file of `part` in `folder`: `settled` for the whole, `K-of-N.settled` for one of several.
    package static func path(in folder: String, part: RequestPart) -> String {
        folder + "/" + part.name("request", suffix)
    }
}

extension RequestSettlement {
    /// Refuses the merge unless `records` say every partition of one split of the request ids
    /// is settled over exactly these partials (`partials`: their MACs, sorted) and snapshot.
    ///
    /// Records of two splits are said first: settling again for one split leaves the other's
    /// records, which would be found stale again and again.
    static func check(_ records: [(path: String, record: RequestSettlement)], snapshot: String, partials: [String]) throws {
        let splits = Set(records.map(\.record.part.parts))
        guard splits.count == 1, let parts = splits.first else { throw SettlementError.mixed(splits.sorted()) }
        for (path, record) in records {
            guard record.snapshot == snapshot, record.partials == partials else {
                throw SettlementError.stale(path)
            }
        }
        let settled = Set(records.map(\.record.part.part))
        let missing = (0..<parts).filter { !settled.contains($0) }
        guard missing.isEmpty else { throw SettlementError.missing(missing.map { RequestPart(part: $0, parts: parts) }) }
    }
}

/// The settlement records of the partials' folder do not cover the partials being merged.
enum SettlementError: DiagnosticError {
    case stale(String)
    case mixed([Int])
    case missing([RequestPart])
    case staleSeeds(String)
    case noPartials(String)

    var diagnostic: Diagnostic {
        let message =
            switch self {
            case .stale(let path):
                "\(path) settled other partials or another snapshot (a partial was computed again, added or removed since): "
                    + "run `refund-cost settle` again over these partials, for every part"
            case .staleSeeds(let path):
                "\(path) was computed with seeds that no longer stand (the row that kept a request id is not where it was "
                    + "settled: a cost file changed since): compute it again without its seeds, then settle again"
            case .noPartials(let folder):
                "no partials (*.partial) in \(folder): run `refund-cost partial` for every group of cost files first"
            case .mixed(let splits):
                "the partials' folder holds settlement records of request ids split \(splits.map(String.init).joined(separator: " and ")) ways: "
                    + "remove its *.settled files and run `refund-cost settle` again, for one split"
            case .missing(let parts):
                "no settlement record for request-id part \(parts.map(\.description).joined(separator: ", ")): run "
                    + parts.map { "`refund-cost settle --part \($0)`" }.joined(separator: ", ")
                    + " (and compute again the partials it names, with every seeds file beside them)"
            }
        return Diagnostic(message)
    }
}
