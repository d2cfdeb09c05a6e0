import Ingest
import Support

/// What respond keeps between runs (`JOURNAL.state/`, or `--state DIR`), so that a run reads
/// only the bytes that arrived since the last one.
///
/// The folder holds, readable by its owner only:
/// - `manifest`: this value, rewritten whole (a new file renamed over the old) at the end of
///   every run that read something, checked by its SHA-256 when read;
/// - `items.N`: every App Store line read, decoded and verified, one after another (appended);
/// - `index.N`, `usage.N`, `claims.N`, `repeats.N`: sorted files of the lines' keys, the accepted
///   cost rows by account, the request ids claimed and those repeated (`RecordRuns`: a few files
///   a kind, merged as they pile up);
/// - `sums.N`: the block sums of every input file read (`InputSums`), read only when a file is
///   not as it was;
/// - `links.N`, `link-index.N`: accounts.csv's rows and where each is (`AccountsIndex`);
/// - `lock`: held by the run that reads and writes the state.
///
/// Every file but the manifest is named with a number no earlier file of the folder had, and
/// the manifest names each with its block sums: a file is trusted only as far as its sums say,
/// block by block as it is read. A killed run leaves the last manifest, which names only files
/// that were whole when it was written: the next run reads the state it names, and removes
/// what it does not name.
struct RespondState: Sendable, Codable {
    static let kind = "respond state"
    static let version = PackedVersions.respondState

    var tool = ToolVersion.current
    /// The fingerprint of every option that changes an answer (the as-of time aside).
    var settings: String
    /// The key of every hash the state finds things by, drawn when it is built.
    var hash: SipHash
    /// Every App Store and cost file read, in the order they were first read: a record names
    /// its file by its number, its place here.
    ///
    /// A file read again is taken out (`retired`) and
    /// read under a new number.
    var files: [TrackedFile] = []
    /// The highest number a file of the folder was given: each new file takes the next.
    var lastNumber = 0
    var items = NumberedFile()
    var index = RecordRuns(kind: "index")
    var usage = RecordRuns(kind: "usage")
    var claims = RecordRuns(kind: "claims")
    var repeats = RecordRuns(kind: "repeats")
    /// The block sums of every input file read, by its number (`sums.N`, with its SHA-256).
    var inputSums: InputSums.Reference?
    /// Refund requests not answered for good yet; a request a later file repeats is here once a file.
    var requests: [StateRequest] = []
    /// accounts.csv's rows, found by what they name (nil until an answer needs them).
    var accounts: AccountsIndex?
    /// fx.csv and prices.csv as the cost rows were read with them.
    var fixedInputs: [FixedInput] = []
    /// The journal the state serves: another journal, or this one replaced or cut short,
    /// rebuilds the state (the requests it answered were let go).
    var journal: JournalBinding?

    init(settings: String, hash: SipHash) {
        self.settings = settings
        self.hash = hash
    }

    /// A file of the folder by its number, with its block sums.
    struct NumberedFile: Sendable, Codable, Hashable {
        var number = 0
        var sums = BlockSums()

        func path(_ kind: String, in folder: String) -> String { folder + "/\(kind).\(number)" }
    }

    /// The next number for a new file of the folder.
    mutating func nextNumber() -> Int {
        lastNumber += 1
        return lastNumber
    }

    /// Every file name the state names.
    var named: Set<String> {
        var names: Set<String> = ["manifest", "lock", StateFolder.marker, "items.\(items.number)"]
        for runs in [index, usage, claims, repeats] { names.formUnion(runs.names) }
        if let inputSums { names.insert("sums.\(inputSums.number)") }
        if let accounts { names.formUnion(accounts.names) }
        return names
    }

    /// The rejects of every file read and not taken out: the App Store files', then the cost
    /// files', each in the layout's order, as a reading of everything meets them.
    func rejects(in layout: InputLayout) -> RejectTally {
        let order = Dictionary(
            (layout.notificationFiles + layout.transactionFiles + layout.costFiles).enumerated().map { ($1, $0) },
            uniquingKeysWith: { first, _ in first })
        let live = files.filter { !$0.retired }.sorted { a, b in
            (a.kind == .cost ? 1 : 0, order[a.path] ?? Int.max) < (b.kind == .cost ? 1 : 0, order[b.path] ?? Int.max)
        }
        return live.reduce(RejectTally()) { $0.merged(with: $1.rejects) }
    }

    /// The state in `folder`, when there is one this version wrote with `settings`, whose files
    /// are all there at the sizes it names; why not, else.
    static func load(_ folder: String, settings: String) -> Result<RespondState, StateMismatchError> {
        let manifest = folder + "/manifest"
        guard FileSystem.kind(manifest) == .regularFile, !FileSystem.isSymbolicLink(manifest) else { return .failure(.none) }
        let state: RespondState
        do {
            let content = try PackedFile.read(manifest, kind: kind, version: version)
            state = try CompactCoder.decode(RespondState.self, from: content)
        } catch {
            return .failure(.reason("its manifest cannot be read (\(error))"))
        }
        guard state.tool == ToolVersion.current else {
            return .failure(.reason("it was written by refund-cost \(state.tool)"))
        }
        guard state.settings == settings else {
            return .failure(.reason("it was made with other options (--environment, --trust-root, cost columns, ...)"))
        }
        if let missing = state.missingFile(in: folder) { return .failure(.reason(missing)) }
        return .success(state)
    }

    /// A file the manifest names that is not there at the size it names.
    private func missingFile(in folder: String) -> String? {
        var sized: [(String, Int)] = [(items.path("items", in: folder), items.sums.length)]
        for runs in [index, usage, claims, repeats] {
            for run in runs.runs { sized.append((runs.path(of: run, in: folder), run.sums.length)) }
        }
        if let accounts { sized += accounts.sizedFiles(in: folder) }
        for (path, length) in sized {
            guard let size = FileSystem.fileSize(path), FileSystem.kind(path) == .regularFile else {
                return "\(StateFolder.name(path)) is missing"
            }
            // The items may hold more than the manifest says: what a killed run appended.
            if size != length && !(path.hasSuffix("/items.\(items.number)") && size > length) {
                return "\(StateFolder.name(path)) is \(size) bytes, not the \(length) its manifest says"
            }
        }
        if let inputSums, FileSystem.kind(folder + "/sums.\(inputSums.number)") != .regularFile {
            return "sums.\(inputSums.number) is missing"
        }
        return nil
    }

    /// Checks every block of every file the manifest names against its sums (`--full-check`):
    /// a run reads only the blocks it needs, and checks only those.
    func checkEveryBlock(in folder: String) throws {
        var files: [(String, BlockSums)] = [(items.path("items", in: folder), items.sums)]
        for runs in [index, usage, claims, repeats] {
            for run in runs.runs { files.append((runs.path(of: run, in: folder), run.sums)) }
        }
        if let accounts { files += accounts.checkedFiles(in: folder) }
        for (path, sums) in files {
            let file = try FileDescriptor.openOwnForReading(path)
            let check = BlockCheck(path: path, sums: sums)
            try check.check(0..<sums.length) { block in
                let range = sums.range(ofBlock: block)
                var buffer = [UInt8](repeating: 0, count: range.count)
                let read = try buffer.withUnsafeMutableBytes { try file.read(into: $0, at: range.lowerBound) }
                guard read == range.count else { throw StateDamageError(what: "\(StateFolder.name(path)) is cut short") }
                return buffer.withUnsafeBytes { Checksum.crc64($0) }
            }
        }
    }

    /// Writes the manifest in one step (a new file renamed over the old), then removes the
    /// files no manifest names any more.
    func commit(to folder: String) throws {
        try PackedFile.write(
            try CompactCoder.encode(self), kind: Self.kind, version: Self.version, to: folder + "/manifest", ownerOnly: true)
        StateFolder.removeStray(in: folder, keeping: named)
    }
}
