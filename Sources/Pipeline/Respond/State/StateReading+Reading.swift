import Attribution
import Ingest
import Support
import Synchronization

extension StateReading {
    /// Reads the files in `whole` from their start, each under a new number, and the grown
    /// files of `spans` from where they stopped, into `state`: the App Store lines into the
    /// items and their keys, the cost rows into usage, claims and repeats.
    ///
    /// Then each file's
    /// track and sums, and the new sorted files. Returns a line for each file the reading
    /// found it had to read again.
    @discardableResult
    func read(
        whole: [String], spans: [String: (number: Int, span: FileSpan)], into state: inout RespondState,
        sums: inout InputSums, rebuilding: Bool
    ) throws -> [String] {
        var reading = Pass()
        // Each file as it is before anything of it is read: one written while this run reads it
        // is not believed (below).
        let before = Dictionary(
            (whole + spans.keys).map { ($0, FileSystem.identity($0)) }, uniquingKeysWith: { first, _ in first })
        for (path, grown) in spans {
            reading.numbers[path] = grown.number
            reading.spans[path] = grown.span
        }
        for path in whole { try reading.add(path, kind: kind(of: path), to: &state) }
        let appStore = appStoreFiles.filter { reading.numbers[$0] != nil }
        var index: [[ItemRecord]] = []
        if !appStore.isEmpty {
            index = [
                try readAppStore(
                    appStore, pass: reading, into: &state, rejects: &reading.rejects, itemBytes: &reading.itemBytes)
            ]
        }
        var costs = CostRecords()
        if layout.costFiles.contains(where: { reading.numbers[$0] != nil }) {
            costs = try readCosts(&reading, into: &state, rebuilding: rebuilding)
        }
        try whileReading?()
        try track(reading, in: &state, sums: &sums, before: before)
        for number in state.files.indices where state.files[number].retired { sums[number] = BlockSums() }
        // fx.csv and prices.csv as the costs were read with them: changed meanwhile, the next run
        // reads every cost file again.
        for index in state.fixedInputs.indices {
            let fixed = state.fixedInputs[index]
            if FileSystem.identity(fixed.path) != fixed.identity { state.fixedInputs[index].crc = 0 }
        }

        // The records into the sorted files; merging drops the records of files taken out.
        let retired = state.files.map(\.retired)
        let live: (UInt32) -> Bool = { !retired[Int($0)] }
        var number = state.lastNumber
        let next: () -> Int = {
            number += 1
            return number
        }
        var runs = (state.index, state.usage, state.claims, state.repeats)
        try runs.0.add(&index, in: folder, number: next, keep: { _ in true })
        try runs.1.add(&costs.usage, spilled: costs.spilledUsage, in: folder, number: next, keep: { live($0.file) })
        try runs.2.add(&costs.claims, spilled: costs.spilledClaims, in: folder, number: next, keep: { live($0.file) })
        try runs.3.add(&costs.repeats, in: folder, number: next, keep: { live($0.file) })
        (state.index, state.usage, state.claims, state.repeats) = runs
        state.lastNumber = number
        state.inputSums = try sums.write(in: folder, number: state.nextNumber())
        return reading.readAgain
    }

    func kind(of path: String) -> TrackedFile.Kind { layout.costFiles.contains(path) ? .cost : .appStore }

    /// The files one reading reads: their numbers, their spans, what they refused.
    struct Pass {
        var numbers: [String: Int] = [:]
        var spans: [String: FileSpan] = [:]
        var rejects: [String: RejectTally] = [:]
        /// A line for each file taken out while reading, saying why.
        var readAgain: [String] = []
        /// Bytes each App Store file's lines added to the items file.
        var itemBytes: [String: Int] = [:]

        /// A file read whole, under a new number.
        mutating func add(_ path: String, kind: TrackedFile.Kind, to state: inout RespondState) throws {
            guard state.files.count < RequestIDRecord.files else {
                throw StateDamageError(what: "it names more files than a state can (\(RequestIDRecord.files))")
            }
            numbers[path] = state.files.count
            state.files.append(try TrackedFile.read(path, kind: kind, through: 0, key: state.hash).file)
            spans[path] = FileSpan(start: 0, firstLine: 1, end: FileSystem.fileSize(path) ?? 0)
            rejects[path] = nil
        }

        mutating func record(_ reject: Reject) {
            rejects[reject.file, default: RejectTally()].record(reject)
        }
    }

    /// Each file of the pass as read now: its line feeds and sums counted over what is new (on
    /// every core), its rejects those kept and those found now.
    ///
    /// A file whose identity moved between `before` (looked at before its lines were read) and
    /// now was written while this run read it: the lines read may be of other bytes than those
    /// summed. It is kept with the identity it had before and no sums, so the next run reads it
    /// again whole (an append during the read costs that once).
    private func track(
        _ pass: Pass, in state: inout RespondState, sums: inout InputSums, before: [String: FileSystem.Identity?]
    ) throws {
        let paths = pass.numbers.keys.sorted()
        let files = state.files
        let hash = state.hash
        let known = sums
        let tracked = try Parallel.map(paths.count, threads: options.threads) { position -> (TrackedFile, BlockSums) in
            let path = paths[position]
            let number = pass.numbers[path] ?? 0
            let span = pass.spans[path] ?? FileSpan(start: 0, firstLine: 1, end: 0)
            let before = span.start > 0 ? (files[number], known[number]) : nil
            return try TrackedFile.read(path, kind: files[number].kind, through: span.end, continuing: before, key: hash)
        }
        for (position, path) in paths.enumerated() {
            let number = pass.numbers[path] ?? 0
            var (file, fileSums) = tracked[position]
            if let found = pass.rejects[path] { file.rejects = file.rejects.merged(with: found) }
            file.itemBytes += pass.itemBytes[path] ?? 0
            if let earlier = before[path] ?? nil, FileSystem.identity(path) != earlier {
                file.identity = earlier
                fileSums = BlockSums()
            }
            state.files[number] = file
            sums[number] = fileSums
        }
    }

    // MARK: - App Store files

    /// Decodes (and verifies) the pass's App Store files over their spans into the items;
    /// returns the keys of the lines kept.
    private func readAppStore(
        _ paths: [String], pass: Pass, into state: inout RespondState, rejects: inout [String: RejectTally],
        itemBytes: inout [String: Int]
    ) throws -> [ItemRecord] {
        let log = RejectLog(keepingAll: true)
        // A file verified by an earlier run on this machine is not verified again when read whole.
        let record = options.verifiedFilesRecord.map(VerifiedFiles.init(location:))
        let reader = AppStoreReader(
            options: options.appStore.appStoreOptions, rejects: log, verifiedFiles: record, threads: options.threads)
        let writer = try StateItems.Writer(path: state.items.path("items", in: folder), sums: state.items.sums)
        let hash = state.hash
        var keys: [ItemRecord] = []
        var requests: [StateRequest] = []
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
        var found: [Reject] = []
        try reader.decode(paths: paths, of: layout, spans: pass.spans, prepare: prepare) { part in
            guard let file = pass.numbers[part.path] else { return }
            found += part.rejects
            for line in part.lines {
                let offset = try writer.append(encoded: line.encoded, file: file, line: line.line)
                itemBytes[part.path, default: 0] += StateItems.headerSize + line.encoded.count
                for key in line.keys { keys.append(ItemRecord(key: key, offset: UInt64(offset))) }
                if var request = line.request {
                    request.item = offset
                    request.file = file
                    requests.append(request)
                }
            }
        }
        state.items.sums = try writer.finish()
        state.requests += requests
        for reject in found + (log.all ?? []) { rejects[reject.file, default: RejectTally()].record(reject) }
        return keys
    }

    /// The refund request a line holds, when it holds one.
    private static func request(in item: AppStoreItem, options: AppStoreOptions) -> StateRequest? {
        guard case .notification(let decoded) = item, decoded.notification.type == .consumptionRequest,
            AppStoreAdmission.admits(decoded, options: options)
        else { return nil }
        return StateRequest(
            uuid: decoded.notification.uuid, transactionID: decoded.transaction?.transactionID,
            signedDate: decoded.notification.signedDate, item: 0, file: 0)
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
