import Attribution
import Ingest
import Support
import Synchronization

extension StateReading {
    /// Past this many records a thread, a reading of every file spills its usage and claims,
    /// sorted, to the state folder (32 MB a thread): a rebuild's memory does not grow with the
    /// rows.
    static let spillPast = 1 << 19

    /// What a reading of cost files gives the sorted files.
    struct CostRecords {
        var usage: [[UsageRecord]] = []
        var spilledUsage: [SortedRecords<UsageRecord>] = []
        var claims: [[RequestIDRecord]] = []
        var spilledClaims: [SortedRecords<RequestIDRecord>] = []
        var repeats: [[RequestIDRecord]] = []
    }

    /// Reads the pass's cost files over their spans.
    ///
    /// Which row of a request id counts is the first in the layout's order. A row read now that
    /// meets an id a file later in that order claimed before, with other content, is the one
    /// that counts: that file's row is the repeat now, so the file is taken out, read again
    /// after this one, and the reading starts over with it.
    func readCosts(_ pass: inout Pass, into state: inout RespondState, rebuilding: Bool) throws -> CostRecords {
        while true {
            let files = layout.costFiles.filter { pass.numbers[$0] != nil }
            let reading = try readCostsOnce(files, pass: pass, state: state, rebuilding: rebuilding)
            if reading.later.isEmpty {
                for reject in reading.rejects { pass.record(reject) }
                return reading.records
            }
            for number in reading.later.sorted() where !state.files[number].retired {
                let path = state.files[number].path
                state.files[number].retired = true
                state.files[number].rejects = RejectTally()
                pass.readAgain.append("\(path): a file before it claims one of its request ids now (read again alone)")
                try pass.add(path, kind: .cost, to: &state)
            }
        }
    }

    /// What the registry's lookups into the state found, from every reading thread.
    private final class Lookups: Sendable {
        /// Files later in the layout's order whose claim a row read now met with other content.
        let later = Mutex<Set<Int>>([])
        /// The first failure to read the state's claims (a damaged file).
        let damage = Mutex<String?>(nil)
    }

    private func readCostsOnce(
        _ paths: [String], pass: Pass, state: RespondState, rebuilding: Bool
    ) throws -> (records: CostRecords, later: Set<Int>, rejects: [Reject]) {
        let rates = try options.appStore.rates(layout, rejects: RejectLog())
        let hash = state.hash
        let lookups = Lookups()
        let earlier: (@Sendable (RequestEntry) -> RequestEntry?)?
        if rebuilding || state.claims.runs.isEmpty {
            earlier = nil
        } else {
            let claims = try state.claims.open(in: folder, as: RequestIDRecord.self)
            let retired = state.files.map(\.retired)
            let position = Dictionary(layout.costFiles.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let positions = state.files.map { position[$0.path] ?? Int.max }
            let first = paths.compactMap { position[$0] }.min() ?? 0
            earlier = { entry in
                do {
                    let found = try claims.records(entry.key).first { record in
                        record.entry.route == entry.route && !retired[Int(record.file)]
                    }
                    guard let found else { return nil }
                    if found.entry.content != entry.content, positions[Int(found.file)] > first {
                        lookups.later.withLock { _ = $0.insert(Int(found.file)) }
                    }
                    return found.entry
                } catch {
                    lookups.damage.withLock { $0 = $0 ?? "\(error)" }
                    return nil
                }
            }
        }
        let numbers = pass.numbers.mapValues { UInt32($0) }
        let recorder = UsageRecorder(
            rates: rates, hash: hash, numbers: numbers, spill: rebuilding ? (folder, Self.spillPast) : nil)
        var collected = try Pipeline(options).collect(
            files: paths, spans: pass.spans, into: recorder,
            registry: { RequestRegistry(hash: hash, recordsRepeats: true, claimsGoToRows: true, earlier: earlier) })
        if let damage = lookups.damage.withLock({ $0 }) {
            throw StateDamageError(what: "its request ids cannot be read (\(damage))")
        }
        // Each thread's records stay a run of their own (sorted and merged as they are written):
        // no second array of every row.
        var records = CostRecords()
        for index in collected.sinks.indices {
            records.usage.append(collected.sinks[index].usage.takeRecords())
            records.spilledUsage += try collected.sinks[index].usage.openSpilled()
            records.claims.append(collected.sinks[index].claims.takeRecords())
            records.spilledClaims += try collected.sinks[index].claims.openSpilled()
        }
        collected.sinks = []
        for index in collected.summaries.indices {
            let file = numbers[collected.summaries[index].path] ?? 0
            records.repeats.append(collected.summaries[index].repeats.map { RequestIDRecord($0, file: file) })
            collected.summaries[index].repeats = []
        }
        return (records, lookups.later.withLock { $0 }, collected.headerRejects + collected.rowRejects)
    }
}
