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
    /// `attributor` is the partials' (building one indexes every transaction).
    package static func run(
        _ pipeline: Pipeline, _ loaded: LedgerLoad, attributor: Attributor, appStoreInputs: [InputFileRecord],
        partials: [CostPartial], totals: AttributionTotals, folder: OutputFolder, warnings: [Diagnostic],
        timings: ReportAssembly.Timings
    ) throws -> ReportOutcome {
        let ordered = try inFileOrder(partials, layout: loaded.layout)
        var costs = try ParallelCostReading.Result.joined(ordered.map(\.reading), totals: totals, summingTotals: false)
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
            loaded, attributor: attributor, appStoreInputs: appStoreInputs, costs: costs, options: pipeline.options,
            folder: folder, rejects: pipeline.rejects, warnings: warnings, timings: timings)
    }

    /// `items` in the order of `precedes`, those it does not tell apart in the order they came.
    private static func stableSorted<T>(_ items: [T], by precedes: (T, T) -> Bool) -> [T] {
        items.indices.sorted { a, b in
            precedes(items[a], items[b]) || (!precedes(items[b], items[a]) && a < b)
        }.map { items[$0] }
    }

    /// The partials by their first file, after checking that together they hold every cost
    /// file once.
    private static func inFileOrder(_ partials: [CostPartial], layout: InputLayout) throws -> [CostPartial] {
        let position = Dictionary(uniqueKeysWithValues: layout.costFiles.enumerated().map { ($1, $0) })
        var seen: [String: Int] = [:]
        for (index, partial) in partials.enumerated() {
            for file in partial.files {
                guard position[file] != nil else { throw MergeError.unknownFile(file) }
                if seen[file] != nil { throw MergeError.fileTwice(file) }
                seen[file] = index
            }
        }
        let missing = layout.costFiles.filter { seen[$0] == nil }
        guard missing.isEmpty else { throw MergeError.missingFiles(missing) }
        return partials.filter { !$0.files.isEmpty }.sorted { position[$0.files[0]] ?? 0 < position[$1.files[0]] ?? 0 }
    }
}

/// Partials that cannot make one report.
enum MergeError: DiagnosticError {
    case unknownFile(String)
    case fileTwice(String)
    case missingFiles([String])
    case settingsDiffer(String)
    case unsettled(Int)

    package var diagnostic: Diagnostic {
        let message =
            switch self {
            case .unknownFile(let file):
                "a partial read \(file), which is not a cost file of the snapshot: the partials and the snapshot are of different data"
            case .fileTwice(let file):
                "\(file) is in two partials; give each cost file to exactly one partial"
            case .missingFiles(let files):
                "no partial read \(files.joined(separator: ", ")); run a partial for \(files.count == 1 ? "it" : "them") first"
            case .settingsDiffer(let what):
                "the partials were not computed alike (\(what)); run every step with the same snapshot and options"
            case .unsettled(let count):
                "\(count) request id\(count == 1 ? " is" : "s are") claimed in more than one partial; "
                    + "run `refund-cost settle` and compute those partials again with their seeds"
            }
        return Diagnostic(message)
    }
}
