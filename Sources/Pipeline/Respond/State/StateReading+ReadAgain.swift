import Attribution
import Ingest
import Support

/// What must be read again, and why: the cost files that repeated request ids of a file read
/// again, a file whose new bytes cannot be read on their own, every cost file when fx.csv or
/// prices.csv holds other bytes.
extension StateReading {
    /// Adds to `again` the cost files whose rows repeated a request id that a file in `again`
    /// claimed: with that file read again, which row of the id counts may be another.
    func readAgainWithTheirRepeats(_ again: inout [Int: String], in state: RespondState) throws {
        guard !state.repeats.runs.isEmpty else { return }
        let claims = try state.claims.open(in: folder, as: RequestIDRecord.self)
        let repeats = try state.repeats.open(in: folder, as: RequestIDRecord.self)
        var grew = true
        while grew {
            grew = false
            let takenOut = Set(again.keys.filter { state.files[$0].kind == .cost }.map { UInt32($0) })
            guard !takenOut.isEmpty else { return }
            var found: [Int: String] = [:]
            try repeats.forEach { record in
                let file = Int(record.file)
                guard again[file] == nil, found[file] == nil, !state.files[file].retired else { return }
                if try claims.records(record.key).contains(where: { takenOut.contains($0.file) }) {
                    found[file] = "it repeats request ids of a file read again"
                }
            }
            again.merge(found) { first, _ in first }
            grew = !found.isEmpty
        }
    }

    /// Why new bytes of `file` cannot be read on their own, or nil when they can.
    func whyNotReadFromTheMiddle(_ file: TrackedFile) -> String? {
        if !file.rejects.wholeFiles.isEmpty { return "it was refused whole" }
        if InputStream.isCompressed(file.path) { return "a compressed file is read again whole" }
        if file.kind == .appStore {
            return InputStream.baseName(file.path).lowercased().hasSuffix(".csv") ? "a CSV export is read again whole" : nil
        }
        return CostFormat.isJSONLines(file.path) ? "a JSON lines cost file is read again whole" : nil
    }

    /// fx.csv and prices.csv as they are: every cost row's cost depends on them.
    static func fixedInputs(_ layout: InputLayout) throws -> [FixedInput] {
        try [layout.exchangeRates, layout.prices].compactMap { $0 }.compactMap(FixedInput.look)
    }

    /// Why every cost file must be read again (fx.csv or prices.csv holds other bytes), or nil;
    /// an identity that moved with the same bytes is brought up to date.
    func refreshFixedInputs(_ state: inout RespondState, changed: inout Bool) throws -> String? {
        let paths = [layout.exchangeRates, layout.prices].compactMap { $0 }.filter { FileSystem.identity($0) != nil }
        guard paths == state.fixedInputs.map(\.path) else { return "fx.csv or prices.csv appeared or went" }
        for index in state.fixedInputs.indices {
            let kept = state.fixedInputs[index]
            if FileSystem.identity(kept.path) == kept.identity { continue }
            guard let now = try FixedInput.look(kept.path), now.crc == kept.crc else {
                return "\(InputStream.baseName(kept.path)) changed, and every cost depends on it"
            }
            state.fixedInputs[index] = now
            changed = true
        }
        return nil
    }
}
