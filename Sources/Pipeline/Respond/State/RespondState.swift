import Ingest
import Support

/// What respond keeps between runs (`JOURNAL.state/`, or `--state DIR`), so that a run reads
/// only the bytes that arrived since the last one.
///
/// The folder holds, readable by its owner only:
/// - `manifest`: this value, rewritten whole (a new file renamed over the old) at the end of
///   every run that read something;
/// - `items.E`: every App Store line read, decoded and verified, one after another (appended;
///   `E` is the state's epoch, new at every rebuild);
/// - `index.G`, `usage.G`, `claims.G`: the lines by the keys they are found under, the
///   accepted cost rows by account and the request ids claimed, each sorted, of generation `G`;
///   what arrived since they were written is in the manifest, until it is merged into the next.
///
/// A killed run leaves the last manifest, which names only files that were whole when it was
/// written: the next run reads the state it names, and removes what it does not name.
struct RespondState: Sendable, Codable {
    static let kind = "respond state"
    static let version = 2

    var tool = ToolVersion.current
    /// The fingerprint of every option that changes an answer (the as-of time aside).
    var settings: String
    /// The key of every hash the state finds things by, drawn when it is built.
    var hash: SipHash
    /// Every App Store and cost file read, in the order they were first read: an item names
    /// its file by its place here.
    var files: [TrackedFile] = []
    var epoch = 0
    var generation = 0
    /// Bytes of `items.E` that are the state's (a killed run may have appended more).
    var itemsLength = 0
    @RecordBytes var itemsSince: [ItemRecord] = []
    @RecordBytes var usageSince: [UsageRecord] = []
    @RecordBytes var claimsSince: [ClaimRecord] = []
    /// Refund requests not answered for good yet.
    var requests: [StateRequest] = []
    /// The rejects of the lines and rows read so far.
    var rejects = RejectTally()
    /// Files refused whole (their header, their encoding): one that grows is read again whole.
    var refusedFiles: Set<String> = []
    /// accounts.csv's rows, found by what they name (nil until an answer needs them).
    var accounts: AccountsIndex?
    /// fx.csv and prices.csv as the cost rows were read with them.
    var fixedInputs: [String: FileSystem.Identity] = [:]
    /// The journal as the state last saw it: a journal replaced or cut short rebuilds the state
    /// (the requests it answered were let go).
    var journal: TrackedFile?

    init(settings: String, hash: SipHash) {
        self.settings = settings
        self.hash = hash
    }

    /// The files of one state, in `folder`.
    struct Paths {
        let folder: String
        let epoch: Int
        let generation: Int
        var manifest: String { folder + "/manifest" }
        var items: String { folder + "/items.\(epoch)" }
        var index: String { folder + "/index.\(generation)" }
        var usage: String { folder + "/usage.\(generation)" }
        var claims: String { folder + "/claims.\(generation)" }
        /// Every file name the state names.
        var named: Set<String> {
            ["manifest", "items.\(epoch)", "index.\(generation)", "usage.\(generation)", "claims.\(generation)"]
        }
    }

    func paths(in folder: String) -> Paths { Paths(folder: folder, epoch: epoch, generation: generation) }

    /// Records that arrived since the sorted files were written; merged into them past these.
    static let mergedPast = (items: 50_000, usage: 250_000, claims: 250_000)

    var needsMerge: Bool {
        itemsSince.count > Self.mergedPast.items || usageSince.count > Self.mergedPast.usage
            || claimsSince.count > Self.mergedPast.claims
    }

    /// The state in `folder`, when there is one this version wrote with `settings`; why not, else.
    static func load(_ folder: String, settings: String) -> Result<RespondState, StateMismatchError> {
        let manifest = folder + "/manifest"
        guard FileSystem.kind(manifest) == .regularFile, !FileSystem.isSymbolicLink(manifest) else { return .failure(.none) }
        do {
            let content = try PackedFile.read(manifest, kind: kind, version: version)
            let state = try CompactCoder.decode(RespondState.self, from: content)
            guard state.tool == ToolVersion.current else {
                return .failure(.reason("it was written by refund-cost \(state.tool)"))
            }
            guard state.settings == settings else {
                return .failure(.reason("it was made with other options (--environment, --trust-root, cost columns, ...)"))
            }
            let paths = state.paths(in: folder)
            guard (FileSystem.fileSize(paths.items) ?? -1) >= state.itemsLength else {
                return .failure(.reason("its items are shorter than its manifest says"))
            }
            for file in [paths.index, paths.usage, paths.claims] where FileSystem.kind(file) != .regularFile {
                return .failure(.reason("\(InputStream.baseName(file)) is missing"))
            }
            var loaded = state
            if let accounts = state.accounts,
                !accounts.names.allSatisfy({ FileSystem.kind(folder + "/" + $0) == .regularFile })
            {
                loaded.accounts = nil
            }
            return .success(loaded)
        } catch {
            return .failure(.reason("it cannot be read (\(error))"))
        }
    }

    /// Writes the manifest in one step (a new file renamed over the old), then removes the
    /// files no manifest names any more.
    func commit(to folder: String) throws {
        let paths = paths(in: folder)
        try PackedFile.write(
            try CompactCoder.encode(self), kind: Self.kind, version: Self.version, to: paths.manifest, ownerOnly: true)
        Self.removeStray(in: folder, keeping: paths.named.union(accounts?.names ?? []))
    }

    /// Removes what a killed or older run left in `folder`.
    static func removeStray(in folder: String, keeping named: Set<String>) {
        for entry in (try? FileSystem.list(folder)) ?? [] where !named.contains(entry.name) && entry.kind == .regularFile {
            FileSystem.remove(folder + "/" + entry.name)
        }
    }

    /// The folder, created owner-only when missing (and made so when it is not); a link in its
    /// place is refused.
    static func prepare(_ folder: String) throws {
        if FileSystem.isSymbolicLink(folder) { throw StateFolderError(path: folder) }
        if FileSystem.kind(folder) == .missing { try FileSystem.createDirectory(folder, mode: 0o700) }
        try FileSystem.makeOwnerOnly(folder)
    }
}

/// Why there is no state to go on from.
enum StateMismatchError: Error, Equatable {
    /// No state yet.
    case none
    case reason(String)
}

/// A refund request the state keeps until the journal answers it for good: where its line is
/// in the items, and when its 12 hours end.
struct StateRequest: Sendable, Codable, Hashable {
    var uuid: String
    var transactionID: String?
    var signedDate: Timestamp
    var item: Int
}

/// A state folder that is a link: the tool writes only where it made the files itself.
struct StateFolderError: DiagnosticError {
    var path: String

    var diagnostic: Diagnostic {
        Diagnostic(
            "the state folder is a symbolic link, and respond writes its state only in a folder of its own "
                + "(remove the link, or give --state the folder itself)", file: path)
    }
}
