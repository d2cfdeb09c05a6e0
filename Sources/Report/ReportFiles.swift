import Attribution
import Support

/// The report files that come from the figures alone (everything but rejects.csv and run.json):
/// one list, each file declared once with the writer that makes it, and the page.
///
/// A new output is a figure in `Sources/Attribution/Figures/`, a writer here, and one entry in
/// `outputs` (docs/architecture.md, "Adding an output file").
package enum ReportFiles {
    /// What a writer is handed: the figures, and for the page the reconciliation and the run.
    struct Inputs: Sendable {
        var figures: ReportFigures
        var conservation: Conservation
        var context: RunContext
        var folder: String
    }

    /// Every data file, in the order they are described, each declared once (`OutputFile`)
    /// with the writer that makes it; a writer may write more than one file.
    static let outputs: [(files: [OutputFile], write: @Sendable (Inputs) throws -> Void)] = [
        ([SummaryFile.file, SummaryFile.totals, SummaryFile.storeTotals], { try SummaryFile.write($0.figures, to: $0.folder) }),
        ([TrendFile.file], { try TrendFile.write($0.figures, to: $0.folder) }),
        ([CostByDayFile.file], { try CostByDayFile.write($0.figures, to: $0.folder) }),
        ([RefundsFile.file], { try RefundsFile.write($0.figures, to: $0.folder) }),
        ([ChargebacksFile.file], { try ChargebacksFile.write($0.figures, to: $0.folder) }),
        ([RefundReviewsFile.file], { try RefundReviewsFile.write($0.figures, to: $0.folder) }),
        ([LeaksFile.file], { try LeaksFile.write($0.figures, to: $0.folder) }),
        ([SubscriptionLossFile.file], { try SubscriptionLossFile.write($0.figures, to: $0.folder) }),
        ([FamilyLinksFile.file], { try FamilyLinksFile.write($0.figures, to: $0.folder) }),
        ([FamilySpendFile.file], { try FamilySpendFile.write($0.figures, to: $0.folder) }),
        (
            [ConsumptionFiles.requests, ConsumptionFiles.responses],
            { try ConsumptionFiles.write($0.figures, to: $0.folder) }
        ),
        ([AllocationFile.file], { try AllocationFile.write($0.figures, to: $0.folder) }),
    ]

    /// `rejects.csv`, which the reject log writes as the run goes (`Reject.csvHeader` names its columns).
    package static let rejects = OutputFile(
        "rejects.csv", Reject.csvHeader.map { ($0, $0 == "line" || $0 == "rows" ? ColumnKind.count : .text) })

    /// `trend.csv`: every label's holds every month up to its window's end, so its rows repeat
    /// across labels (a database keeps one answer per month in a view).
    package static let trend = TrendFile.file

    /// Every data file a report folder holds (run.json and the page aside): what `publish` loads.
    package static let dataFiles: [OutputFile] = outputs.flatMap(\.files) + [rejects]

    package static func write(
        _ figures: ReportFigures, conservation: Conservation, context: RunContext, to folder: String
    ) throws {
        let inputs = Inputs(figures: figures, conservation: conservation, context: context, folder: folder)
        // Each file is written from the figures alone: they are written side by side, the page with them.
        let writers =
            outputs.map(\.write) + [
                { try ReportPage.write($0.figures, conservation: $0.conservation, context: $0.context, to: $0.folder) }
            ]
        _ = try Parallel.map(writers.count, threads: FileSystem.processorCount) { try writers[$0](inputs) }
    }

    /// The data files every run writes from its figures (the page aside), in the order they are described.
    package static var csvNames: [String] { outputs.flatMap(\.files).map(\.name) }
}
