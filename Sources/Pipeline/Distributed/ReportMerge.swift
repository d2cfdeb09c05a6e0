import Attribution
import Ingest
import Ledger
import Report
import Support

/// The merge step of a distributed run: the partials of every cost file, checked to hold each
/// file once and computed alike, merged in file order and assembled as one process would.
enum ReportMerge {
    /// Merges `partials` (which must hold every cost file of the layout once, with duplicates
    /// across them settled; their totals already summed in `totals`) and assembles the report;
    /// rejects of the App Store side are already in the pipeline's log, the partials' follow
    /// them as one reading lists them (every unusable header first, then the rows).
    ///
    /// `attributor` is the partials' (building one indexes every transaction); the assembly lets
    /// it go once the credits are settled.
    package static func run(
        _ pipeline: Pipeline, _ loaded: LedgerLoad, attributor: consuming Attributor, appStoreInputs: [InputFileRecord],
        partials: [CostPartial], totals: AttributionTotals, folder: OutputFolder, warnings: [Diagnostic],
        timings: ReportAssembly.Timings
    ) throws -> ReportOutcome {
        let ordered = try inFileOrder(partials, layout: loaded.layout)
        var costs = try ParallelCostReading.Result.joined(ordered, totals: totals, summingTotals: false)
        // A partial's files need not follow each other in file order (groups are planned by
        // size): its rejects go where their files are, as one reading of every file meets them.
        let position = Dictionary(uniqueKeysWithValues: loaded.layout.costFiles.enumerated().map { ($1, $0) })
        func precedes(_ a: Reject, _ b: Reject) -> Bool {
            (position[a.file] ?? Int.max, a.line) < (position[b.file] ?? Int.max, b.line)
        }
        costs.headerRejects = stableSorted(costs.headerRejects, by: precedes)
        costs.rowRejects = stableSorted(costs.rowRejects, by: precedes)
        try pipeline.record(costs)
        return try ReportAssembly.run(
            loaded, attributor: consume attributor, appStoreInputs: appStoreInputs, costs: costs, options: pipeline.options,
            folder: folder, rejects: pipeline.rejects, warnings: warnings, timings: timings)
    }

    /// `items` in the order of `precedes`, those it does not tell apart in the order they came.
    private static func stableSorted<T>(_ items: [T], by precedes: (T, T) -> Bool) -> [T] {
        items.indices.sorted { a, b in
            precedes(items[a], items[b]) || (!precedes(items[b], items[a]) && a < b)
        }.map { items[$0] }
    }

    /// The partials' readings by their first file, once checked to hold every cost file once.
    ///
    /// The pieces of a file are read as one: their counts added, their rejects in piece order
    /// (their lines are the file's).
    private static func inFileOrder(_ partials: [CostPartial], layout: InputLayout) throws
        -> [ParallelCostReading.Result]
    {
        try checkCoverage(partials.map { ($0.files, $0.piece) }, layout: layout)
        let position = Dictionary(uniqueKeysWithValues: layout.costFiles.enumerated().map { ($1, $0) })
        let ordered = partials.filter { !$0.files.isEmpty }.sorted {
            (position[$0.files[0]] ?? 0, $0.piece?.index ?? 0) < (position[$1.files[0]] ?? 0, $1.piece?.index ?? 0)
        }
        var readings: [ParallelCostReading.Result] = []
        for partial in ordered {
            guard (partial.piece?.index ?? 0) > 0, var file = readings.popLast() else {
                readings.append(partial.reading)
                continue
            }
            try file.addPiece(partial.reading)
            readings.append(file)
        }
        return readings
    }

    /// Refuses partials that do not hold every cost file of `layout` once: whole, or every piece
    /// of one split of it once.
    static func checkCoverage(_ partials: [(files: [String], piece: FilePiece?)], layout: InputLayout) throws {
        let position = Dictionary(uniqueKeysWithValues: layout.costFiles.enumerated().map { ($1, $0) })
        var whole: Set<String> = []
        var pieces: [String: [Int: FilePiece]] = [:]
        for partial in partials {
            for file in partial.files {
                guard position[file] != nil else { throw MergeError.unknownFile(file) }
                if whole.contains(file) && partial.piece == nil { throw MergeError.fileTwice(file) }
                if whole.contains(file) || (partial.piece == nil && pieces[file] != nil) {
                    throw MergeError.wholeAndPieces(file)
                }
                guard let piece = partial.piece else {
                    whole.insert(file)
                    continue
                }
                if let other = pieces[file]?.values.first, other.split != piece.split {
                    throw MergeError.otherSplit(file)
                }
                guard pieces[file, default: [:]].updateValue(piece, forKey: piece.index) == nil else {
                    throw MergeError.pieceTwice(file, piece)
                }
            }
        }
        var missing = layout.costFiles.filter { !whole.contains($0) && pieces[$0] == nil }
        guard missing.isEmpty else { throw MergeError.missingFiles(missing) }
        for (file, read) in pieces.sorted(by: { $0.key.bytesPrecede($1.key) }) {
            let count = read.values.first?.count ?? 0
            missing = (0..<count).filter { read[$0] == nil }.map { "piece \($0) of \(count) of \(file)" }
            guard missing.isEmpty else { throw MergeError.missingFiles(missing) }
        }
    }

    /// Refuses routing partials without the partial of every group they routed rows to, once,
    /// each having read the rows of every routing partial as it is now (named by its MAC).
    static func checkRouting(_ partials: [(path: String, partial: CostPartial, check: String)]) throws {
        let routings = partials.filter { $0.partial.routedTo != nil }
        let groups = partials.compactMap(\.partial.routedGroup)
        guard !routings.isEmpty || !groups.isEmpty else { return }
        guard routings.count == partials.count - groups.count else { throw RoutingError.mixed }
        let counts = Set(routings.compactMap(\.partial.routedTo) + groups.map(\.group.groups)).sorted()
        guard counts.count == 1, let count = counts.first else {
            throw RoutingError.otherGroupCounts(counts.first ?? 0, counts.last ?? 0)
        }
        var byGroup: [Int: (path: String, group: RoutedGroup)] = [:]
        for (path, partial, _) in partials {
            guard let group = partial.routedGroup else { continue }
            if let other = byGroup.updateValue((path, group), forKey: group.group.group) {
                throw RoutingError.groupTwice(group.group.group, [other.path, path])
            }
        }
        let missing = (0..<count).filter { byGroup[$0] == nil }
        guard missing.isEmpty else { throw RoutingError.groupMissing(missing) }
        // Every group that did not read every routing partial as it is now, at once.
        let expected = Set(routings.map(\.check))
        let read = (0..<count).map { Set(byGroup[$0]?.group.routings ?? []) }
        let stale = (0..<count).filter { read[$0] != expected }
        guard stale.isEmpty else {
            let unread = routings.filter { routing in stale.contains { !read[$0].contains(routing.check) } }.map(\.path)
            let gone = stale.reduce(into: Set<String>()) { $0.formUnion(read[$1].subtracting(expected)) }.count
            throw RoutingError.notRouted(groups: stale, missing: unread, gone: gone)
        }
    }
}

extension ParallelCostReading.Result {
    /// Adds the reading of the next piece of the same one file: its counts into the file's,
    /// its rejects after the earlier pieces' (its totals are summed apart).
    fileprivate mutating func addPiece(_ next: ParallelCostReading.Result) throws {
        for summary in next.summaries {
            guard let index = summaries.firstIndex(where: { $0.path == summary.path }) else {
                summaries.append(summary)
                continue
            }
            do {
                try summaries[index].merge(summary)
            } catch {
                throw CostSumError(file: summary.path, underlying: error)
            }
        }
        headerRejects += next.headerRejects
        rowRejects += next.rowRejects
        readSequentially = readSequentially || next.readSequentially
    }
}

/// Partials that cannot make one report.
enum MergeError: DiagnosticError {
    case unknownFile(String)
    case fileTwice(String)
    case missingFiles([String])
    case pieceTwice(String, FilePiece)
    case wholeAndPieces(String)
    case otherSplit(String)
    case settingsDiffer(String)
    /// How many ids, and the partials that must be computed again with seeds.
    case unsettled(Int, partials: [String])

    package var diagnostic: Diagnostic {
        let message =
            switch self {
            case .unknownFile(let file):
                "a partial read \(file), which is not a cost file of the snapshot: the partials and the snapshot are of different data"
            case .fileTwice(let file):
                "\(file) is in two partials; give each cost file to exactly one partial"
            case .missingFiles(let files):
                "no partial read \(files.joined(separator: ", ")); run a partial for \(files.count == 1 ? "it" : "them") first"
            case .pieceTwice(let file, let piece):
                "\(piece.description) of \(file) is in two partials; give each piece to exactly one partial"
            case .wholeAndPieces(let file):
                "\(file) is read whole by one partial and in pieces by others; give it whole to one partial, or each piece "
                    + "of one split to one partial"
            case .otherSplit(let file):
                "the pieces of \(file) come from different splits of it; split it once and give every piece of that split to a partial"
            case .settingsDiffer(let what):
                "the partials were not computed alike (\(what)); run every step with the same snapshot and options"
            case .unsettled(let count, let partials):
                "\(count) request id\(count == 1 ? " is" : "s are") claimed in more than one partial; "
                    + "run `refund-cost settle` and compute again, with their seeds, "
                    + partials.prefix(3).joined(separator: ", ")
                    + (partials.count > 3 ? " and \(partials.count - 3) more" : "")
            }
        return Diagnostic(message)
    }
}
