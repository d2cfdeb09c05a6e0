import Attribution
import Ingest
import Support

/// The refund requests a respond run looks at, and the answers to those it must work out.
///
/// From respond's state (the bytes that arrived since the last run read into it, the answers
/// worked out over the requested accounts only), or, when the costs hold a FOCUS bill (spread
/// over all usage at once), from a reading of everything, as a report reads it.
final class RespondRequests {
    struct Request: Sendable, Hashable {
        var uuid: String
        var transactionID: String?
        var signedAt: Timestamp
    }

    /// Every request not answered for good yet (and, from a reading of everything, those too),
    /// in the order they were signed.
    private(set) var requests: [Request]
    /// A line on how the state was come by, when it was rebuilt.
    private(set) var note: String?
    /// Nothing arrived since the last run.
    private(set) var nothingNew = false
    private var source: Source
    private let options: RunOptions
    /// An answer was worked out: accounts.csv's index may be new.
    private var accountsIndexBuilt = false
    /// The folder a dry run builds its state in, removed with this value.
    private let temporary: String?

    private enum Source {
        case state(folder: String, layout: InputLayout, state: RespondState)
        case everything(ConsumptionAnswers)
    }

    /// The requests as of now; `stateFolder` nil for a dry run (the state is built aside and
    /// left behind).
    init(options: RunOptions, stateFolder: String?, journal: String) throws {
        // The state names files by their paths: one spelling of the folder (`./exports` or
        // `/srv/app/exports`) reads the state another wrote.
        var options = options
        options.data = FileSystem.resolvedPath(options.data)
        self.options = options
        let layout = try InputLayout(root: options.data)
        temporary = stateFolder == nil ? try FileSystem.temporaryDirectory(prefix: "refund-cost-respond-state") : nil
        guard let folder = stateFolder ?? temporary else { preconditionFailure("a state folder") }
        let reading: StateReading.Outcome
        do {
            reading = try StateReading(folder: folder, options: options, layout: layout).upToDate(journal: journal)
        } catch let bill as PoolsNeedOneProcessError {
            let answers = try ConsumptionAnswers.compute(options)
            source = .everything(answers)
            requests = answers.requests.map {
                Request(uuid: $0.notificationUUID, transactionID: $0.transactionID, signedAt: $0.signedAt)
            }
            note =
                "\(InputStream.baseName(bill.file)) is a FOCUS bill, spread over all usage at once: every run reads every file "
                + "(no state is kept)"
            return
        }
        source = .state(folder: folder, layout: layout, state: reading.state)
        requests = reading.state.requests.map { Request(uuid: $0.uuid, transactionID: $0.transactionID, signedAt: $0.signedDate) }
            .sorted { ($0.signedAt, $0.uuid) < ($1.signedAt, $1.uuid) }
        nothingNew = reading.nothingNew
        if let rebuilt = reading.rebuilt {
            note = "the state in \(folder) was built from every file: \(rebuilt)"
        }
    }

    deinit {
        if let temporary { try? FileSystem.removeTree(temporary) }
    }

    /// The rejects of what was read to know the requests.
    var rejects: RejectTally {
        switch source {
        case .state(_, _, let state): state.rejects
        case .everything(let answers): answers.rejects
        }
    }

    /// The answers to `wanted` and their transactions' types, with the rejects and warnings of
    /// what was read for them.
    func answers(_ wanted: [Request]) throws -> (
        figures: [String: ConsumptionFigure], types: [String: ProductType], rejects: RejectTally, warnings: [Diagnostic]
    ) {
        switch source {
        case .everything(let answers):
            let figures = Dictionary(answers.requests.map { ($0.notificationUUID, $0) }, uniquingKeysWith: { first, _ in first })
            return (figures, answers.types, RejectTally(), answers.warnings)
        case .state(let folder, let layout, var state):
            guard !wanted.isEmpty else { return ([:], [:], RejectTally(), []) }
            let uuids = Set(wanted.map(\.uuid))
            let computed = try AccountAnswers.compute(
                state.requests.filter { uuids.contains($0.uuid) }, state: &state, folder: folder, options: options,
                layout: layout)
            // accounts.csv's index, when it was built now, is kept with the state.
            source = .state(folder: folder, layout: layout, state: state)
            accountsIndexBuilt = true
            return (computed.figures, computed.types, computed.rejects, computed.warnings)
        }
    }

    /// Keeps the state for the next run, with only the requests in `kept`: written last, in one
    /// step, bound to the journal as it is now.
    func keep(only kept: Set<String>, journal: String, stateFolder: String?) throws {
        guard case .state(let folder, let layout, var state) = source, let stateFolder, folder == stateFolder else { return }
        state.requests.removeAll { !kept.contains($0.uuid) }
        let tracked = try StateReading.track(journal: journal)
        // Nothing read, nothing answered since: the state on disk is this one.
        if nothingNew && !accountsIndexBuilt && state.requests.count == requests.count
            && tracked?.identity == state.journal?.identity
        {
            return
        }
        state.journal = tracked
        try state.commit(to: folder)
        source = .state(folder: folder, layout: layout, state: state)
    }
}
