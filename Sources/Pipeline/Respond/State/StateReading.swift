import Attribution
import Ingest
import Support

/// Brings respond's state up to date with the data folder: the bytes that arrived since the
/// last run are read (decoded, verified, checked) into it, or, when something else changed,
/// the state is built again from every file.
///
/// The same stages as a report reads with (`AppStoreReader`, `ParallelCostReading`), over
/// only the files and bytes that are new.
struct StateReading {
    let folder: String
    let options: RunOptions
    let layout: InputLayout
    /// What the state is bound to: every option that changes what it holds.
    let settings: String

    init(folder: String, options: RunOptions, layout: InputLayout) {
        self.folder = folder
        self.options = options
        self.layout = layout
        settings = Self.settings(options)
    }

    /// The fingerprint of the options a state is bound to: the run's configuration with its
    /// time left out (every run of respond has another "now").
    static func settings(_ options: RunOptions) -> String {
        var configuration = options.configuration
        configuration.window = ReportWindow(start: .earliestAccepted, end: .earliestAccepted, label: "respond")
        configuration.appStore.asOf = .earliestAccepted
        return "refund-cost \(ToolVersion.current) " + configuration.fingerprint
    }

    /// What a reading did.
    struct Outcome {
        var state: RespondState
        /// Why the state was built from every file (nil when it went on from the last run's).
        var rebuilt: String?
        /// Nothing was new: no file grew, none appeared.
        var nothingNew = false
    }

    /// The state as the data folder is now.
    func upToDate(journal: String) throws -> Outcome {
        switch RespondState.load(folder, settings: settings) {
        case .failure(.none):
            return Outcome(state: try rebuilt(after: nil), rebuilt: "there is none yet")
        case .failure(.reason(let reason)):
            return Outcome(state: try rebuilt(after: nil), rebuilt: reason)
        case .success(var state):
            if let journalChange = try Self.change(of: state.journal, path: journal) {
                return Outcome(state: try rebuilt(after: state), rebuilt: "the journal \(journalChange)")
            }
            switch try changes(since: state) {
            case .rebuild(let reason):
                return Outcome(state: try rebuilt(after: state), rebuilt: reason)
            case .read(let spans, let newFiles):
                if spans.isEmpty && newFiles.isEmpty { return Outcome(state: state, rebuilt: nil, nothingNew: true) }
                do {
                    try read(spans: spans, newFiles: newFiles, into: &state)
                } catch let rebuild as RebuildNeededError {
                    return Outcome(state: try rebuilt(after: state), rebuilt: rebuild.reason)
                }
                return Outcome(state: state, rebuilt: nil)
            }
        }
    }

    /// How the journal changed since the state saw it, when it changed otherwise than by growing.
    static func change(of tracked: TrackedFile?, path: String) throws -> String? {
        guard let tracked else { return nil }
        switch try tracked.compared() {
        case .same, .grown: return nil
        case .changed(let why): return "\(path): \(why)"
        }
    }

    /// The journal as it is now, for the state to compare with next time.
    static func track(journal path: String) throws -> TrackedFile? {
        guard let size = FileSystem.fileSize(path) else { return nil }
        return try TrackedFile.read(path, through: size)
    }

    private enum Plan {
        case rebuild(String)
        /// The files that grew, from where they were read to, and the files never read.
        case read([String: FileSpan], [String])
    }

    private var appStoreFiles: [String] { layout.notificationFiles + layout.transactionFiles }

    /// What to read: the files that grew and the new ones, or why the state must be rebuilt.
    private func changes(since state: RespondState) throws -> Plan {
        if state.fixedInputs != Self.fixedInputs(layout) {
            return .rebuild("fx.csv or prices.csv changed: every cost row is read again")
        }
        let current = Set(appStoreFiles + layout.costFiles)
        var spans: [String: FileSpan] = [:]
        for file in state.files {
            guard current.contains(file.path) else { return .rebuild("\(file.path) is gone (removed or renamed)") }
            switch try file.compared() {
            case .same:
                continue
            case .changed(let why):
                return .rebuild("\(file.path): \(why)")
            case .grown(let span):
                if let why = whyNotReadFromTheMiddle(file.path, refused: state.refusedFiles) {
                    return .rebuild("\(file.path) grew, and \(why)")
                }
                spans[file.path] = span
            }
        }
        let known = Set(state.files.map(\.path))
        let newFiles = (appStoreFiles + layout.costFiles).filter { !known.contains($0) }
        if let bill = newFiles.first(where: { layout.costFiles.contains($0) && FocusPoolFile.isPoolFile($0) }) {
            throw PoolsNeedOneProcessError(file: bill)
        }
        return .read(spans, newFiles)
    }

    /// Why new bytes of the file at `path` cannot be read on their own, or nil when they can.
    private func whyNotReadFromTheMiddle(_ path: String, refused: Set<String>) -> String? {
        if refused.contains(path) { return "it was refused whole" }
        if InputStream.isCompressed(path) { return "a compressed file is read again whole" }
        if layout.notificationFiles.contains(path) || layout.transactionFiles.contains(path) {
            return InputStream.baseName(path).lowercased().hasSuffix(".csv") ? "a CSV export is read again whole" : nil
        }
        return CostFormat.isJSONLines(path) ? "a JSON lines cost file is read again whole" : nil
    }

    /// fx.csv and prices.csv as they are: every cost row's cost depends on them.
    static func fixedInputs(_ layout: InputLayout) -> [String: FileSystem.Identity] {
        var identities: [String: FileSystem.Identity] = [:]
        for path in [layout.exchangeRates, layout.prices].compactMap({ $0 }) { identities[path] = FileSystem.identity(path) }
        return identities
    }

    // MARK: - Building

    /// A state from every file, in a new epoch (the last state stays whole until the new
    /// manifest replaces it).
    private func rebuilt(after previous: RespondState?) throws -> RespondState {
        // A bill is spread over all usage at once: no state can hold its share of an account.
        if let bill = layout.costFiles.first(where: FocusPoolFile.isPoolFile) { throw PoolsNeedOneProcessError(file: bill) }
        var state = RespondState(settings: settings, hash: .randomlyKeyed())
        state.epoch = (previous?.epoch ?? Self.highestEpoch(in: folder)) + 1
        state.generation = (previous?.generation ?? 0) + 1
        state.fixedInputs = Self.fixedInputs(layout)
        try RespondState.prepare(folder)
        let files = appStoreFiles + layout.costFiles
        var spans: [String: FileSpan] = [:]
        for path in files { spans[path] = FileSpan(start: 0, firstLine: 1, end: FileSystem.fileSize(path) ?? 0) }
        var added = try readNew(spans: spans, order: files, into: &state, wholeFiles: true)
        let paths = state.paths(in: folder)
        try SortedRecords.write(runs: &added.items, to: paths.index)
        try SortedRecords.write(runs: &added.usage, to: paths.usage)
        try SortedRecords.write(runs: &added.claims, to: paths.claims)
        return state
    }

    /// Reads the grown and the new files into `state`.
    private func read(spans: [String: FileSpan], newFiles: [String], into state: inout RespondState) throws {
        var all = spans
        for path in newFiles { all[path] = FileSpan(start: 0, firstLine: 1, end: FileSystem.fileSize(path) ?? 0) }
        // In the layout's order, as a reading of everything reads them.
        let order = (appStoreFiles + layout.costFiles).filter { all[$0] != nil }
        let added = try readNew(spans: all, order: order, into: &state, wholeFiles: false)
        state.itemsSince += added.items.joined()
        state.usageSince += added.usage.joined()
        state.claimsSince += added.claims.joined()
        guard state.needsMerge else { return }
        let old = state.paths(in: folder)
        state.generation += 1
        let new = state.paths(in: folder)
        try SortedRecords<ItemRecord>(path: old.index).merged(with: state.itemsSince, to: new.index)
        try SortedRecords<UsageRecord>(path: old.usage).merged(with: state.usageSince, to: new.usage)
        try SortedRecords<ClaimRecord>(path: old.claims).merged(with: state.claimsSince, to: new.claims)
        state.itemsSince = []
        state.usageSince = []
        state.claimsSince = []
    }

    /// The records to index, in runs (one a reading thread, one a file): each run is sorted and
    /// the runs merged as the sorted file is written, so no array holds every record twice.
    private struct Added {
        var items: [[ItemRecord]] = [[]]
        var usage: [[UsageRecord]] = []
        var claims: [[ClaimRecord]] = []
    }

    /// Reads the `spans` of the files in `order` (App Store files, then cost files) into `state`;
    /// returns the records to index.
    private func readNew(
        spans: [String: FileSpan], order: [String], into state: inout RespondState, wholeFiles: Bool
    ) throws -> Added {
        var added = Added()
        var fileIndex = Dictionary(uniqueKeysWithValues: state.files.enumerated().map { ($1.path, $0) })
        for path in order where fileIndex[path] == nil {
            fileIndex[path] = state.files.count
            state.files.append(try TrackedFile.read(path, through: 0))
        }
        let appStore = order.filter { layout.notificationFiles.contains($0) || layout.transactionFiles.contains($0) }
        let costs = order.filter { layout.costFiles.contains($0) }
        if !appStore.isEmpty {
            try readAppStore(appStore, spans: spans, fileIndex: fileIndex, into: &state, added: &added, wholeFiles: wholeFiles)
        }
        if !costs.isEmpty { try readCosts(costs, spans: spans, into: &state, added: &added, wholeFiles: wholeFiles) }
        // Each file is now known through the end of its span (its line feeds counted on every core).
        let files = state.files
        let known = fileIndex
        let tracked = try Parallel.map(order.count, threads: options.threads) { position -> TrackedFile in
            let path = order[position]
            let span = spans[path] ?? FileSpan(start: 0, firstLine: 1, end: 0)
            let before = known[path].map { files[$0] }
            return try TrackedFile.read(
                path, through: span.end, known: span.start > 0 ? before.map { ($0.lineFeeds, $0.bytes) } : nil)
        }
        for (position, path) in order.enumerated() {
            if let index = fileIndex[path] { state.files[index] = tracked[position] }
        }
        return added
    }

    private func readAppStore(
        _ paths: [String], spans: [String: FileSpan], fileIndex: [String: Int], into state: inout RespondState,
        added: inout Added, wholeFiles: Bool
    ) throws {
        let log = RejectLog()
        // A file verified by an earlier run on this machine is not verified again when read whole.
        let record = wholeFiles ? options.verifiedFilesRecord.map(VerifiedFiles.init(location:)) : nil
        let reader = AppStoreReader(
            options: options.appStore.appStoreOptions, rejects: log, verifiedFiles: record, threads: options.threads)
        let writer = try StateItems.Writer(path: state.paths(in: folder).items, length: state.itemsLength)
        let hash = state.hash
        var requests = Set(state.requests.map(\.uuid))
        var rejects = state.rejects
        var refused = state.refusedFiles
        var newRequests: [StateRequest] = []
        let appStoreOptions = reader.options
        // Each piece's lines are encoded on the decoding threads; only the writing is in order.
        let prepare: @Sendable (DecodedPart) throws -> PreparedPart = { part in
            var prepared = PreparedPart(path: part.path)
            for item in part.items {
                if case .rejected(let reject) = item {
                    prepared.rejects.append(reject)
                    continue
                }
                let keys = StateKeys.keys(of: item, hash)
                let request = Self.request(in: item, options: appStoreOptions)
                guard !keys.isEmpty || request != nil else { continue }
                prepared.lines.append(
                    PreparedPart.Line(encoded: try CompactCoder.encode(item), line: item.line ?? 0, keys: keys, request: request))
            }
            return prepared
        }
        try reader.decode(paths: paths, of: layout, spans: spans, prepare: prepare) { part in
            guard let file = fileIndex[part.path] else { return }
            for reject in part.rejects {
                rejects.record(reject)
                if reject.wholeFile { refused.insert(reject.file) }
            }
            for line in part.lines {
                let offset = try writer.append(encoded: line.encoded, file: file, line: line.line)
                for key in line.keys { added.items[0].append(ItemRecord(key: key, offset: UInt64(offset))) }
                if var request = line.request, !requests.contains(request.uuid) {
                    request.item = offset
                    requests.insert(request.uuid)
                    newRequests.append(request)
                }
            }
        }
        try writer.finish()
        state.itemsLength = writer.length
        state.requests += newRequests
        for reject in log.tally.samples where reject.wholeFile { refused.insert(reject.file) }
        state.rejects = rejects.merged(with: log.tally)
        state.refusedFiles = refused
    }

    /// The refund request a line holds, when it holds one.
    private static func request(in item: AppStoreItem, options: AppStoreOptions) -> StateRequest? {
        guard case .notification(let decoded) = item, decoded.notification.type == .consumptionRequest,
            AppStoreReader.admits(decoded, options: options)
        else { return nil }
        return StateRequest(
            uuid: decoded.notification.uuid, transactionID: decoded.transaction?.transactionID,
            signedDate: decoded.notification.signedDate, item: 0)
    }

    private func readCosts(
        _ paths: [String], spans: [String: FileSpan], into state: inout RespondState, added: inout Added, wholeFiles: Bool
    ) throws {
        let log = RejectLog()
        let rates = try ExchangeRates.read(path: layout.exchangeRates, reportCurrency: options.appStore.currency, rejects: log)
        let hash = state.hash
        let earlier: (@Sendable (RequestEntry) -> RequestEntry?)?
        if wholeFiles {
            earlier = nil
        } else {
            let sorted = try SortedRecords<ClaimRecord>(path: state.paths(in: folder).claims)
            let since = Dictionary(grouping: state.claimsSince, by: \.key)
            earlier = { entry in
                let found = (since[entry.key] ?? []) + sorted.records(entry.key)
                return found.first { $0.entry.route == entry.route }?.entry
            }
        }
        // The pipeline's cost reading; its rejects join those the state kept.
        let pipeline = Pipeline(options)
        var collected = try pipeline.collect(
            files: paths, spans: spans, into: UsageRecorder(rates: rates, hash: hash),
            registry: { RequestRegistry(hash: hash, recordsClaims: true, earlier: earlier) })
        if !wholeFiles, let conflict = collected.summaries.first(where: { $0.conflicts > 0 }) {
            // Which row of an id counts depends on the order of all rows: read again from the start.
            throw RebuildNeededError(reason: "\(conflict.path) repeats a request id of an earlier row with other content")
        }
        state.rejects = state.rejects.merged(with: pipeline.rejects.tally)
        for reject in collected.headerRejects { state.refusedFiles.insert(reject.file) }
        // Each thread's records stay a run of their own (sorted and merged as they are written):
        // no second array of every row. A file's claims become records one file at a time.
        added.usage += collected.sinks.map(\.records)
        collected.sinks = []
        for index in collected.summaries.indices {
            added.claims.append(collected.summaries[index].claims.map { ClaimRecord($0.entry) })
            collected.summaries[index].claims = []
        }
    }

    /// The highest epoch of the items files in `folder` (0 when none).
    private static func highestEpoch(in folder: String) -> Int {
        ((try? FileSystem.list(folder)) ?? []).compactMap { entry in
            entry.name.hasPrefix("items.") ? Int(entry.name.dropFirst("items.".count)) : nil
        }.max() ?? 0
    }
}

/// A decoded piece as the state keeps it: its lines encoded, with their keys.
private struct PreparedPart: Sendable {
    struct Line: Sendable {
        var encoded: [UInt8]
        var line: Int
        var keys: [UInt64]
        var request: StateRequest?
    }

    var path: String
    var lines: [Line] = []
    var rejects: [Reject] = []
}

/// New bytes that cannot be read on their own: the state is built again from every file.
struct RebuildNeededError: Error {
    var reason: String
}
