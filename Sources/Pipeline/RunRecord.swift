import Attribution
import Ingest
import Report
import Support

/// `run.json`: what was run, on which inputs, what was counted and dropped, the
/// reconciliation, and how long it took.
///
/// Everything but `timings` is the same for the same inputs and options.
struct RunRecord {
    var options: RunOptions
    var inputs: [InputFileRecord]
    var summaries: [CostFileSummary]
    var counts: AppStoreCounts
    var totals: AttributionTotals
    var rejects: RejectTally
    var completeness: InputCompleteness
    /// Every count the page shows.
    var figureCounts: FigureCounts
    /// What answering refund requests earned, with `--journal` (null without).
    var answering: AnsweringFigure?
    /// What answering Google's refund reviews earned, with `--play-journal` (written only then).
    var playAnswering: PlayAnsweringFigure? = nil
    var conservation: Conservation
    /// Transactions whose appAccountToken matched no account of accounts.csv.
    var unmatchedAppAccountTokens = 0
    var timings: [(String, Double)]

    func write(to path: String) throws {
        let file = try AtomicFileWriter(path: path)
        try file.append(try json.pretty)
        try file.commit()
    }

    private func money(_ amount: Money) -> JSONValue { .number(amount.formatted(decimals: 9)) }

    private func totalsByCurrency(_ totals: CostTotals) -> JSONValue {
        .object(totals.sorted.map { ($0.currency.description, money($0.amount)) })
    }

    var json: JSONValue {
        get throws {
            .object(
                [
                    ("tool", .string("refund-cost")),
                    ("version", .string(ToolVersion.current)),
                    ("command", .string("report")),
                    ("options", optionsJSON),
                    (
                        "inputs",
                        .array(
                            inputs.map { input in
                                .object([
                                    ("path", .string(input.path)), ("bytes", .integer(Int64(input.bytes))),
                                    ("sha256", .string(input.sha256)),
                                ])
                            })
                    ),
                    ("input_folders", completeness.json),
                    ("cost_rows", try costRowsJSON),
                ] + CountLine.json(counts.lines) + [
                    ("incomplete_histories", .array(counts.incompleteHistories.map { .string($0) })),
                    ("unmatched_app_account_tokens", .integer(Int64(unmatchedAppAccountTokens))),
                    ("signatures", SignatureReport.json(counts.signatures, options.appStore)),
                    ("rejected_lines", .integer(Int64(rejects.lines))),
                    ("rejected_rows", .integer(Int64(rejects.rows))),
                    ("conservation", conservationJSON),
                ] + ((try conservation.allocation.map { [("allocation", try allocationJSON($0))] } ?? [])) + [
                    ("figures", figureCounts.json),
                    ("answering", answering?.json ?? .null),
                ] + (playAnswering.map { [("play_answering", $0.json)] } ?? []) + [
                    ("timings", .object(timings.map { ($0.0 + "_seconds", .number(Self.seconds($0.1))) }))
                ])
        }
    }

    private var optionsJSON: JSONValue {
        let window = options.window
        // Written only when given, so a run.json of files in this tool's own shape is as before.
        let formats = options.costColumns.formats.map(\.spelling)
        let columns = options.costColumns.rules.map { rule in
            ((rule.glob.map { $0 + ":" } ?? "") + rule.name.rawValue, rule.header)
        }
        return .object(
            [
                ("label", .string(window.label)),
                ("period_start", .string(window.start.description)),
                ("period_end", .string(window.end.description)),
                ("as_of", .string(options.asOf.description)),
                ("environment", .string(options.appStore.environment.rawValue)),
                ("grace", .string(options.grace.description)),
                ("premature_window", .string(options.appStore.prematureWindow.description)),
                ("currency", .string(options.appStore.currency.description)),
                ("max_rejects", .integer(Int64(options.maxRejects))),
                ("cost_columns", .object(columns.map { ($0.0, .string($0.1)) })),
            ] + (formats.isEmpty ? [] : [("cost_formats", .array(formats.map { .string($0) }))])
                + [
                    ("heavy_use", .string(ConsumptionAnswer.percent(options.consumptionPolicy.heavyUse))),
                    ("usage_field", .string(options.costColumns.usageField)),
                    // Every option that changes a figure, as the tool codes it (written from the
                    // configuration itself: a new option is here with nothing to add), and the
                    // fingerprint snapshots, partials and respond's state compare.
                    ("configuration", (try? JSONValueEncoder.encode(options.configuration)) ?? .null),
                    ("fingerprint", .string(options.configuration.fingerprint)),
                ])
    }

    private var costRowsJSON: JSONValue {
        get throws {
            var accepted = CostTotals()
            var duplicates = CostTotals()
            var rejected = CostTotals()
            for summary in summaries {
                try accepted.add(summary.acceptedCost)
                try duplicates.add(summary.duplicateCost)
                try rejected.add(summary.rejectedCost)
            }
            func sum(_ count: (CostFileSummary) -> Int) -> JSONValue { .integer(Int64(summaries.reduce(0) { $0 + count($1) })) }
            return .object([
                ("read", sum(\.rows)),
                ("accepted", sum(\.accepted)),
                ("rejected", sum(\.rejected)),
                ("duplicates_dropped", sum(\.duplicates)),
                ("in_window", .integer(Int64(totals.rowsInWindow))),
                ("before_window", .integer(Int64(totals.rowsBeforeWindow))),
                ("after_window", .integer(Int64(totals.rowsAfterWindow))),
                ("accepted_cost", totalsByCurrency(accepted)),
                ("duplicate_cost", totalsByCurrency(duplicates)),
                ("rejected_cost", totalsByCurrency(rejected)),
            ])
        }
    }

    private var conservationJSON: JSONValue {
        .object([
            ("holds", .bool(conservation.holds)),
            (
                "by_currency",
                .array(
                    conservation.byCurrency.map { line in
                        .object([
                            ("currency", .string(line.currency.description)),
                            ("accepted", money(line.accepted)),
                            ("in_window", money(line.inWindow)),
                            ("before_window", money(line.beforeWindow)),
                            ("after_window", money(line.afterWindow)),
                            ("sum_of_classes", money(line.classes)),
                            ("holds", .bool(line.holds)),
                        ])
                    })
            ),
            ("report_currency", .string(options.appStore.currency.description)),
            ("sum_of_classes", money(conservation.classTotal)),
            ("sum_of_product_rows", money(conservation.productRowsTotal)),
            ("sum_of_cost_by_day", money(conservation.costByDayTotal)),
        ])
    }

    /// The bill: what was read, allocated and left, and why it was left (written only when the
    /// data holds a FOCUS bill).
    private func allocationJSON(_ allocation: PoolAllocation) throws -> JSONValue {
        var reasons: [[String]: (rows: Int, cost: Money)] = [:]
        for line in allocation.lines where !line.allocated {
            let key = [line.reason, line.currency.description]
            let sum = reasons[key] ?? (0, .zero)
            reasons[key] = (sum.rows + line.poolRows, try sum.cost.adding(line.cost))
        }
        return .object([
            ("pool_files", .array(allocation.poolFiles.map { .string($0) })),
            ("allocation_file", allocation.rulesFile.map { .string($0) } ?? .null),
            ("pool_rows", .integer(Int64(allocation.poolRows))),
            ("read", totalsByCurrency(allocation.read)),
            ("allocated", totalsByCurrency(allocation.allocated)),
            ("unallocated", totalsByCurrency(allocation.unallocated)),
            ("holds", .bool(allocation.holds)),
            (
                "unallocated_by_reason",
                .array(
                    reasons.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { key in
                        .object([
                            ("reason", .string(key[0])), ("currency", .string(key[1])),
                            ("pool_rows", .integer(Int64(reasons[key]?.rows ?? 0))),
                            ("cost", money(reasons[key]?.cost ?? .zero)),
                        ])
                    })
            ),
        ])
    }

    private static func seconds(_ value: Double) -> String {
        let milliseconds = Int64((value * 1000).rounded())
        return "\(milliseconds / 1000)." + String(milliseconds % 1000).leftPadded(to: 3)
    }
}
