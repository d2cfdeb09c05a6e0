import Attribution
import Ingest
import Support

/// The cost rows of one group of accounts that a routing partial read, beside it
/// (`P.rows-K-of-G`): what the group's partial attributes against the group's ledger alone, so
/// that no task holds the totals of accounts other than its group's.
///
/// The content is the head, its length first, then the rows as a spill writes them. The head
/// names the routing partial by its MAC: rows left from another computation of it, or of
/// another snapshot, are refused by the merge through the group's partial that read them.
package enum RoutedRows {
    static let kind = "routed rows"
    static let version = PackedVersions.routedRows

    /// Whose rows these are.
    struct Head: Sendable, Codable, Hashable {
        /// The MAC of the routing partial that read them.
        var partial: String
        /// SHA-256 of the snapshot the routing partial was computed against.
        var snapshot: String
        var group: AccountGroup
    }

    /// The name of the rows of `group` beside the routing partial at `partialPath`.
    package static func path(of partialPath: String, group: AccountGroup) -> String {
        "\(partialPath).rows-\(group.group)-of-\(group.groups)"
    }

    /// True for a file `path(of:group:)` names for `group`.
    static func isRows(_ name: String, of group: AccountGroup) -> Bool {
        name.hasSuffix(".rows-\(group.group)-of-\(group.groups)")
    }

    /// Writes the rows of the spill at `spill` under `head` to `path`, a megabyte at a time.
    static func write(spill: String, head: Head, to path: String, secret: StepSecret) throws {
        let coded = try CompactCoder.encode(head)
        try PackedFile.write(kind: kind, version: version, to: path, secret: secret) { sink in
            var length = UInt32(coded.count).littleEndian
            try sink(withUnsafeBytes(of: &length) { Array($0) } + coded)
            let file = try FileDescriptor.openForReading(spill)
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let read = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
                if read == 0 { break }
                try sink(Array(chunk[..<read]))
            }
        }
    }

    /// The head of the rows at `path`, after handing each row to `body`.
    static func read(_ path: String, secret: StepSecret, _ body: (CostRow) throws -> Void) throws -> Head {
        let content = try PackedFile.read(path, kind: kind, version: version, secret: secret)
        return try content.withUnsafeBytes { bytes in
            guard bytes.count >= 4 else { throw PackedFileError(path: path, problem: "its content ends before its head") }
            let length = Int(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
            guard bytes.count - 4 >= length else {
                throw PackedFileError(path: path, problem: "its content ends before its head")
            }
            let head: Head
            do {
                head = try CompactCoder.decode(Head.self, from: Array(bytes[4..<(4 + length)]))
            } catch {
                throw PackedFileError(path: path, problem: "its head cannot be read (\(error))")
            }
            let rows = UnsafeRawBufferPointer(rebasing: bytes[(4 + length)...])
            guard try UsageSpill.read(records: rows, body) else {
                throw PackedFileError(path: path, problem: "its rows end inside a row")
            }
            return head
        }
    }
}

/// Routing partials and groups' partials that cannot be computed or merged.
enum RoutingError: DiagnosticError {
    case needsGroups
    case noSuchGroup(AccountGroup)
    case noRows(String, AccountGroup)
    case otherGroup(String, AccountGroup, AccountGroup)
    case otherSnapshot(String)
    case twice(String, String)
    case mixed
    case otherGroupCounts(Int, Int)
    case groupMissing([Int])
    case groupTwice(Int, [String])
    case notRouted(groups: [Int], missing: [String], gone: Int)

    var diagnostic: Diagnostic {
        let message =
            switch self {
            case .needsGroups:
                "--route needs --account-groups G, above 1, the groups the snapshot was cut in"
            case .noSuchGroup(let group):
                "--group \(group.group) is not a group of \(group.groups): give a group from 0 to \(group.groups - 1) of --account-groups "
                    + "G above 1"
            case .noRows(let folder, let group):
                "\(folder) holds no routed rows of group \(group) (files P.rows-\(group.group)-of-\(group.groups)): run the routing "
                    + "partials (`partial --route`) first, with --account-groups \(group.groups)"
            case .otherGroup(let path, let found, let wanted):
                "\(path) holds the rows of group \(found), not \(wanted): it was renamed; route the rows again"
            case .otherSnapshot(let path):
                "\(path) was routed against another snapshot: run its routing partial again"
            case .twice(let first, let second):
                "\(first) and \(second) are the same routing partial's rows: keep one"
            case .mixed:
                "some partials routed their rows to the groups' partials and others attributed theirs: compute every partial "
                    + "one way, all with --route or none"
            case .otherGroupCounts(let one, let other):
                "the routing partials routed to \(one) and to \(other) groups: route every partial with the same --account-groups"
            case .groupMissing(let groups):
                "no group partial attributed group\(groups.count == 1 ? "" : "s") \(groups.map(String.init).joined(separator: ", ")): run "
                    + "`partial --group K` for \(groups.count == 1 ? "it" : "each") once every routing partial is done"
            case .groupTwice(let group, let paths):
                "group \(group) is in two group partials, \(paths.joined(separator: " and ")): keep one"
            case .notRouted(let groups, let missing, let gone):
                "the partial\(groups.count == 1 ? " of group" : "s of groups") "
                    + groups.map(String.init).joined(separator: ", ")
                    + " did not read the rows of every routing partial as it is now"
                    + (missing.isEmpty ? "" : " (not those of \(missing.joined(separator: ", ")): computed again since, or new)")
                    + (missing.isEmpty && gone > 0
                        ? " (\(gone == 1 ? "one they read is" : "\(gone) they read are") no longer here)" : "")
                    + ": compute \(groups.count == 1 ? "it" : "each") again (`partial --group K`) once every routing partial "
                    + "is done and settled"
            }
        return Diagnostic(message)
    }
}
