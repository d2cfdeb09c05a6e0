import Attribution
import Ingest
import Support

/// Brings respond's state up to date with the data folder: the bytes that arrived since the
/// last run are read (decoded, verified, checked) into it; a file changed otherwise, or gone,
/// is taken out and read again alone; the state is built again from every file only when there
/// is none this version made with these options, or it cannot be trusted.
///
/// The same stages as a report reads with (`AppStoreReader`, `ParallelCostReading`), over
/// only the files and bytes that are new (`StateReading+Reading.swift`).
struct StateReading {
    let folder: String
    let options: RunOptions
    let layout: InputLayout
    /// What the state is bound to: every option that changes what it holds.
    let settings: String
    /// What happens between the reading of the files and their tracking: nothing in a run; in a
    /// test, a file changed while the run reads it.
    var whileReading: (@Sendable () throws -> Void)?

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
        /// A line for each file read again alone, saying why.
        var readAgain: [String] = []
        /// Nothing was new: no file grew, appeared, changed or went.
        var nothingNew = false
        /// The state is not the one its manifest holds (something was read, or an identity moved).
        var changed = true
    }

    var appStoreFiles: [String] { layout.notificationFiles + layout.transactionFiles }

    /// The state as the data folder is now.
    ///
    /// `distrust` says why the folder's content cannot be
    /// believed (others could write it); `fullCheck` hashes every byte of every file read
    /// before again (`--full-check`).
    func upToDate(journal: String, fullCheck: Bool, distrust: String? = nil) throws -> Outcome {
        if let distrust { return try rebuilt(because: distrust) }
        switch RespondState.load(folder, settings: settings) {
        case .failure(.none):
            return try rebuilt(because: "there is none yet")
        case .failure(.reason(let reason)):
            return try rebuilt(because: reason)
        case .success(let state):
            if let why = try state.journal.map({ try $0.mismatch(journal) }) ?? "it was kept for no journal" {
                return try rebuilt(because: why)
            }
            do {
                return try updated(state, fullCheck: fullCheck)
            } catch let damage as StateDamageError {
                return try rebuilt(because: "it is damaged (\(damage.what))")
            }
        }
    }

    /// A state from every file, its files numbered above every file in the folder (the last
    /// state stays whole until the new manifest replaces it).
    func rebuilt(because reason: String) throws -> Outcome {
        // A bill is spread over all usage at once: no state can hold its share of an account.
        if let bill = layout.costFiles.first(where: FocusPoolFile.isPoolFile) { throw PoolsNeedOneProcessError(file: bill) }
        var state = RespondState(settings: settings, hash: .randomlyKeyed())
        state.lastNumber = StateFolder.highestNumber(in: folder)
        state.items.number = state.nextNumber()
        state.fixedInputs = try Self.fixedInputs(layout)
        var sums = InputSums()
        try read(whole: appStoreFiles + layout.costFiles, spans: [:], into: &state, sums: &sums, rebuilding: true)
        return Outcome(state: state, rebuilt: reason)
    }

    /// The state brought up to date: what grew is read from where it stopped, what changed or
    /// went is taken out and read again alone, what is new is read.
    private func updated(_ loaded: RespondState, fullCheck: Bool) throws -> Outcome {
        var state = loaded
        var outcome = Outcome(state: loaded, changed: false)
        if fullCheck { try state.checkEveryBlock(in: folder) }
        // Lines of files read again stay in the items until the state is built again: once they
        // are most of it (an App Store CSV export read again whole at each growth), it is.
        let dead = state.files.filter(\.retired).reduce(0) { $0 + $1.itemBytes }
        if dead > 0, 2 * dead > state.items.sums.length {
            return try rebuilt(
                because: "most of its items are lines of files read again since it was built (it is built anew, smaller)")
        }
        var stored: InputSums?
        func sums() throws -> InputSums {
            if let stored { return stored }
            let read = try state.inputSums.map { try InputSums.read($0, in: folder) } ?? InputSums()
            stored = read
            return read
        }
        let costsChanged = try refreshFixedInputs(&state, changed: &outcome.changed)
        let current = Set(appStoreFiles + layout.costFiles)
        var spans: [Int: FileSpan] = [:]
        var again: [Int: String] = [:]
        for number in state.files.indices where !state.files[number].retired {
            let file = state.files[number]
            guard current.contains(file.path) else {
                again[number] = "it is gone (removed or renamed)"
                continue
            }
            switch try file.compared(sums: { try sums()[number] }, key: state.hash, everyByte: fullCheck) {
            case .same:
                if file.kind == .cost, let costsChanged { again[number] = costsChanged }
            case .gone:
                again[number] = "it is gone"
            case .metadata(let identity):
                state.files[number].identity = identity
                outcome.changed = true
                if file.kind == .cost, let costsChanged { again[number] = costsChanged }
            case .changed(let why):
                again[number] = why
            case .grown(let span):
                if let why = whyNotReadFromTheMiddle(file) {
                    again[number] = "it grew, and \(why)"
                } else if file.kind == .cost, let costsChanged {
                    again[number] = costsChanged
                } else {
                    spans[number] = span
                }
            }
        }
        let known = Set(state.files.filter { !$0.retired }.map(\.path))
        let newFiles = (appStoreFiles + layout.costFiles).filter { !known.contains($0) }
        if let bill = newFiles.first(where: { layout.costFiles.contains($0) && FocusPoolFile.isPoolFile($0) }) {
            throw PoolsNeedOneProcessError(file: bill)
        }
        if spans.isEmpty && again.isEmpty && newFiles.isEmpty {
            outcome.state = state
            outcome.nothingNew = true
            return outcome
        }
        try readAgainWithTheirRepeats(&again, in: state)
        var inputSums = try sums()
        for number in again.keys.sorted() {
            let file = state.files[number]
            outcome.readAgain.append(
                "\(file.path): \(again[number] ?? "") (\(current.contains(file.path) ? "read again alone" : "taken out"))")
            state.files[number].retired = true
            state.files[number].rejects = RejectTally()
            state.requests.removeAll { $0.file == number }
            inputSums[number] = BlockSums()
        }
        let readAgain = Set(again.keys.map { state.files[$0].path }.filter(current.contains))
        let whole = (appStoreFiles + layout.costFiles).filter { readAgain.contains($0) || newFiles.contains($0) }
        var grown: [String: (number: Int, span: FileSpan)] = [:]
        for (number, span) in spans { grown[state.files[number].path] = (number, span) }
        if costsChanged != nil { state.fixedInputs = try Self.fixedInputs(layout) }
        outcome.readAgain += try read(whole: whole, spans: grown, into: &state, sums: &inputSums, rebuilding: false)
        outcome.state = state
        outcome.changed = true
        return outcome
    }
}
