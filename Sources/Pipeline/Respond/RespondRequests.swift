import Attribution
import Ingest
import Support

/// The refund requests a respond run looks at, and the answers to those it must work out.
///
/// From respond's state (the bytes that arrived since the last run read into it, the answers
/// worked out over the requested accounts only), or, when the costs hold a FOCUS bill (spread
/// over all usage at once), from a reading of everything, as a report reads it.
///
/// The state is locked from before it is read until it is written (`keep`), so two runs that
/// share it never write it both; a state found damaged while answers are worked out is built
/// again from every file, and the answers worked out from that.
final class RespondRequests {
    typealias Request = RespondTriage.Request

    /// The answers worked out, with what was read for them.
    struct Answers {
        var figures: [String: ConsumptionFigure] = [:]
        /// Each answered transaction's type, for Apple's rules on the percentage.
        var types: [String: ProductType] = [:]
        var rejects = RejectTally()
    }

    /// Every request not answered for good yet (and, from a reading of everything, those too),
    /// in the order they were signed.
    private(set) var requests: [Request]
    /// Lines on how the state was come by: rebuilt, or files read again alone.
    private(set) var notes: [String] = []
    /// Nothing arrived since the last run.
    private(set) var nothingNew = false
    private var source: Source
    private let options: RunOptions
    /// The state differs from the one on disk: it is written by `keep`.
    private var changed = false
    /// The folder a dry run builds its state in, removed with this value.
    private let temporary: String?
    /// Held from the reading of the state until it is kept.
    private var lock: RunLock?
    /// Where what the reading says but does not stop for goes.
    private let diagnostics: DiagnosticCollector

    private enum Source {
        case state(StateReading, RespondState)
        case everything(ConsumptionAnswers)
    }

    /// The requests as of now.
    ///
    /// `stateFolder` nil for a dry run (the state is built aside and
    /// left behind). `fullCheck` hashes every byte of every file the state read (`--full-check`).
    init(
        options: RunOptions, stateFolder: String?, journal: String, fullCheck: Bool = false,
        diagnostics: DiagnosticCollector
    ) throws {
        self.diagnostics = diagnostics
        // The state names files by their paths: one spelling of the folder (`./exports` or
        // `/srv/app/exports`) reads the state another wrote.
        var options = options
        options.data = FileSystem.resolvedPath(options.data)
        self.options = options
        let layout = try InputLayout(root: options.data)
        temporary = stateFolder == nil ? try FileSystem.temporaryDirectory(prefix: "refund-cost-respond-state") : nil
        guard let folder = stateFolder ?? temporary else { preconditionFailure("a state folder") }
        let reading = StateReading(folder: folder, options: options, layout: layout)
        let found: StateReading.Outcome
        do {
            // The folder is inspected before anything is written in it, the lock file included.
            let distrust = try StateFolder.prepare(folder, journal: journal)
            lock = try RunLock(path: folder + "/lock", guarding: "the state \(folder)")
            found = try reading.upToDate(journal: journal, fullCheck: fullCheck, distrust: distrust)
        } catch let bill as PoolsNeedOneProcessError {
            let answers = try ConsumptionAnswers.compute(options, diagnostics: diagnostics)
            source = .everything(answers)
            requests = answers.requests.map {
                Request(uuid: $0.notificationUUID, transactionID: $0.transactionID, signedAt: $0.signedAt)
            }
            notes = [
                "\(InputStream.baseName(bill.file)) is a FOCUS bill, spread over all usage at once: every run reads every file "
                    + "(no state is kept)"
            ]
            lock = nil
            return
        }
        source = .state(reading, found.state)
        requests = Self.requests(of: found.state, layout: layout)
        nothingNew = found.nothingNew
        changed = found.changed
        if temporary != nil {
            notes.append("a dry run reads every file into a state of its own: the journal's state is neither read nor changed")
        } else if let rebuilt = found.rebuilt {
            notes.append("the state in \(folder) was built from every file: \(rebuilt)")
        }
        notes += found.readAgain
    }

    deinit {
        if let temporary { try? FileSystem.removeTree(temporary) }
    }

    /// The state's requests, each once (a notification repeated in a later file is the first
    /// one's), in the order they were signed.
    private static func requests(of state: RespondState, layout: InputLayout) -> [Request] {
        firstOfEach(state, layout: layout).map {
            Request(uuid: $0.uuid, transactionID: $0.transactionID, signedAt: $0.signedDate)
        }.sorted { ($0.signedAt, $0.uuid) < ($1.signedAt, $1.uuid) }
    }

    /// Each request's first line in the layout's order, when the state holds it more than once.
    private static func firstOfEach(_ state: RespondState, layout: InputLayout) -> [StateRequest] {
        let order = Dictionary(
            (layout.notificationFiles + layout.transactionFiles).enumerated().map { ($1, $0) },
            uniquingKeysWith: { first, _ in first })
        var first: [String: (place: (Int, Int), request: StateRequest)] = [:]
        for request in state.requests {
            let place = (order[state.files[request.file].path] ?? Int.max, request.item)
            if let kept = first[request.uuid], kept.place <= place { continue }
            first[request.uuid] = (place, request)
        }
        return first.values.map(\.request).sorted { $0.uuid < $1.uuid }
    }

    /// The rejects of what was read to know the requests.
    var rejects: RejectTally {
        switch source {
        case .state(let reading, let state): state.rejects(in: reading.layout)
        case .everything(let answers): answers.rejects
        }
    }

    /// The answers to `wanted` and their transactions' types, with the rejects and warnings of
    /// what was read for them.
    func answers(_ wanted: [Request]) throws -> Answers {
        switch source {
        case .everything(let answers):
            let figures = Dictionary(answers.requests.map { ($0.notificationUUID, $0) }, uniquingKeysWith: { first, _ in first })
            return Answers(figures: figures, types: answers.types)
        case .state(let reading, var state):
            guard !wanted.isEmpty else { return Answers() }
            let computed: AccountAnswers
            do {
                computed = try answers(wanted, from: &state, reading: reading)
            } catch let damage as StateDamageError {
                // Found while looking up: built again from every file, answered from that.
                let rebuilt = try reading.rebuilt(because: "it is damaged (\(damage.what))")
                state = rebuilt.state
                notes.append("the state in \(reading.folder) was built from every file: \(rebuilt.rebuilt ?? "")")
                computed = try answers(wanted, from: &state, reading: reading)
            }
            // accounts.csv's index, when it was built now, is kept with the state.
            source = .state(reading, state)
            changed = true
            return Answers(
                figures: computed.figures, types: computed.types, rejects: computed.rejects)
        }
    }

    private func answers(_ wanted: [Request], from state: inout RespondState, reading: StateReading) throws -> AccountAnswers {
        let uuids = Set(wanted.map(\.uuid))
        let accounts = try AccountsIndex.upToDate(in: &state, layout: reading.layout, folder: reading.folder)
        return try AccountAnswers.compute(
            Self.firstOfEach(state, layout: reading.layout).filter { uuids.contains($0.uuid) }, state: state,
            accounts: accounts, folder: reading.folder, options: options, layout: reading.layout, diagnostics: diagnostics)
    }

    /// Keeps the state for the next run without the requests answered for good: the requests
    /// this run looked at and did not put in `kept`.
    ///
    /// Written last, in one step, bound to the
    /// journal as it is now; then the state's lock is let go.
    func keep(only kept: Set<String>, journal: String, stateFolder: String?) throws {
        defer { lock = nil }
        guard case .state(let reading, var state) = source, let stateFolder, reading.folder == stateFolder else { return }
        let looked = Set(requests.map(\.uuid))
        let before = state.requests.count
        state.requests.removeAll { looked.contains($0.uuid) && !kept.contains($0.uuid) }
        let binding = try JournalBinding.of(journal)
        // Nothing read, nothing answered since: the state on disk is this one.
        if !changed && state.requests.count == before && binding == state.journal { return }
        state.journal = binding
        try state.commit(to: stateFolder)
        source = .state(reading, state)
        changed = false
    }
}
