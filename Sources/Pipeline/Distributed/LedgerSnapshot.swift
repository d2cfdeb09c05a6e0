import Attribution
import Ingest
import Ledger
import Support

/// The App Store side of a run, read and verified once: what `refund-cost snapshot` writes and
/// every partial and the merge read back, so that no task reads or verifies Apple's data again.
///
/// It holds the ledger's inputs (the latest copy of every transaction, the notifications, the
/// renewal info, the account links and products), the rates and the consumption evidence, the
/// input layout with the App Store files' checksums, and every line rejected while reading them.
/// The ledger itself is rebuilt from these in memory: that is fast, and it keeps one way of
/// building it.
package struct LedgerSnapshot: Codable, Sendable {
    package static let kind = "ledger snapshot"
    package static let version = PackedVersions.ledgerSnapshot

    package var options: LedgerLoad.Options
    package var layout: InputLayout
    package var input: AppStoreInput
    package var accountLinks: [AccountLinkRow]
    package var products: [String: Product]
    package var rates: ExchangeRates
    package var evidence: ConsumptionEvidence
    /// Everything rejected while the App Store side was read, in the order it was found.
    package var rejects: [Reject]
    /// Every input but the cost files, with sizes and checksums, for run.json and the page.
    package var inputs: [InputFileRecord]
    /// The key of the request-id fingerprints every partial of this snapshot uses, so that
    /// their ids can be compared; drawn at random when the snapshot is made.
    package var requestKey: SipHash
    /// Each cost file's size and the times its bytes and its inode last changed, as the snapshot
    /// saw them: a partial and the merge refuse a file that changed since, so every step of a
    /// run reads the same rows.
    package var costFiles: [FileIdentity] = []

    /// Reads and verifies the App Store side of the pipeline's data (or keeps the pieces
    /// `decoded` elsewhere); the pipeline's reject log must keep every reject.
    package init(_ pipeline: Pipeline, decoded: DecodedPieces? = nil) throws {
        try self.init(pipeline, loaded: try pipeline.load(keepingRecords: true, decoded: decoded))
    }

    /// The snapshot of `loaded`, which `pipeline` loaded keeping its records: for a caller that
    /// also needs its ledger (`load()` would build it again).
    package init(_ pipeline: Pipeline, loaded: LedgerLoad) throws {
        options = pipeline.options.appStore
        layout = loaded.layout
        input = loaded.appStore.input
        accountLinks = loaded.appStore.accountLinks
        products = loaded.appStore.products
        rates = loaded.rates
        evidence = loaded.evidence
        rejects = pipeline.rejects.all ?? []
        inputs = try loaded.appStoreInputRecords(root: pipeline.options.data)
        requestKey = .randomlyKeyed()
        costFiles = layout.costFiles.map(FileIdentity.init(path:))
    }

    /// The ledger built again from the snapshot: the same ledger the snapshot was made from.
    ///
    /// As in a report, the records are let go from what it returns once the ledger is built;
    /// the snapshot keeps its own (`loadHandingOverRecords` lets them go).
    package func load(refundsOfEveryAccount: RefundTimes? = nil) throws -> LedgerLoad {
        var copy = self
        return try copy.loadHandingOverRecords(refundsOfEveryAccount: refundsOfEveryAccount)
    }

    /// The same ledger, the snapshot's records and accounts.csv's rows handed over to it, as a
    /// report does: the ledger lets each array go once it is done with it, before its access
    /// timelines, its peak, instead of holding them beside it until it is built.
    package mutating func loadHandingOverRecords(refundsOfEveryAccount: RefundTimes? = nil) throws -> LedgerLoad {
        // Its rejects were found when the snapshot was made; they are in `rejects`.
        let again = RejectLog()
        var appStore = AppStoreLoad(input: input, accountLinks: accountLinks, products: products)
        releaseRecords()
        let (records, links) = appStore.handOverRecords()
        let ledger = try Ledger(
            input: consume records, accountLinks: consume links, products: products,
            options: options.ledgerOptions, rejects: again, refundsOfEveryAccount: refundsOfEveryAccount)
        return LedgerLoad(layout: layout, appStore: appStore, ledger: ledger, rates: rates, evidence: evidence)
    }

    /// Lets go of the records and accounts.csv's rows, once the ledger is built from them.
    package mutating func releaseRecords() {
        input.releaseRecords()
        accountLinks = []
    }

    /// Refuses `files` (cost files of the layout) when one changed since the snapshot saw it,
    /// and, with `listingAgain`, a `costs/` that holds other files now.
    package func checkCostFiles(_ files: [String], listingAgain: Bool = false) throws {
        let seen = Dictionary(costFiles.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for file in files {
            guard let identity = seen[file], identity == FileIdentity(path: file) else { throw CostFileChangedError(path: file) }
            // Each later opening of the file, too: a file swapped in after this check is refused.
            identity.pin(saying: CostFileChangedError.problem)
        }
        if listingAgain {
            let now = try InputLayout(root: layout.root).costFiles
            if let added = now.first(where: { seen[$0] == nil }) { throw CostFileChangedError(path: added) }
            if let removed = layout.costFiles.first(where: { !now.contains($0) }) { throw CostFileChangedError(path: removed) }
        }
    }

    /// Refuses a run whose options would build another ledger than this one.
    package func check(_ wanted: LedgerLoad.Options, data: String) throws {
        guard wanted == options else {
            throw SnapshotMismatchError(
                reason:
                    "it was made with other options (as-of time, environment, currency, trust roots, app ids or verification); "
                    + "give every step the same options")
        }
        guard data == layout.root else {
            throw SnapshotMismatchError(reason: "it was made from --data \(layout.root), not \(data)")
        }
    }
}

/// What a file was when a step looked at it (a cost file when the snapshot was made, a file
/// when it was split or decoded).
package struct FileIdentity: Sendable, Codable, Hashable {
    package var path: String
    /// Nil when there was no file.
    package var bytes: Int?
    package var modified: Int64?
    package var changed: Int64?
    /// Another file put in its place has another, even with the same size and times. (Not the
    /// device: a shared mount has another number on each machine.)
    package var inode: UInt64?

    init(path: String) {
        self.path = path
        let identity = FileSystem.identity(path)
        bytes = identity?.bytes
        modified = identity?.modified
        changed = identity?.changed
        inode = identity?.inode
    }

    /// Holds every later opening of the file in this process to this identity
    /// (`PinnedFiles`), refused with `problem`; nothing when there was no file.
    func pin(saying problem: String) {
        guard let bytes, let modified, let changed, let inode else { return }
        PinnedFiles.pin(
            path, PinnedFiles.Pin(bytes: bytes, modified: modified, changed: changed, inode: inode, explanation: problem))
    }
}

/// A cost file changed, appeared or went away after the snapshot.
struct CostFileChangedError: DiagnosticError {
    var path: String

    static let problem =
        "this cost file changed, appeared or went away after the snapshot was made (its size, its inode, or the time "
        + "its bytes or its inode changed, differs): make the snapshot again, then every partial, so that every step reads "
        + "the same rows"

    var diagnostic: Diagnostic { Diagnostic(Self.problem, file: path) }
}

struct SnapshotMismatchError: DiagnosticError {
    package var reason: String

    package var diagnostic: Diagnostic { Diagnostic("the ledger snapshot does not fit this run: " + reason) }
}
