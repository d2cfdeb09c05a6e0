import Attribution
import Support

/// The report files that come from the figures alone (everything but rejects.csv and run.json):
/// one list, each file with the writer that makes it.
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

    /// Every file, in the order they are described (the CSV files first), with its writer; a
    /// writer may write more than its file (`consumption_requests.csv` and its `.jsonl`).
    static let outputs: [(files: [String], write: @Sendable (Inputs) throws -> Void)] = [
        (["summary.csv", "totals.csv"], { try SummaryFile.write($0.figures, to: $0.folder) }),
        (["trend.csv"], { try TrendFile.write($0.figures, to: $0.folder) }),
        (["cost_by_day.csv"], { try CostByDayFile.write($0.figures, to: $0.folder) }),
        (["refunds.csv"], { try RefundsFile.write($0.figures, to: $0.folder) }),
        (["leaks.csv"], { try LeaksFile.write($0.figures, to: $0.folder) }),
        (["subscription_loss.csv"], { try SubscriptionLossFile.write($0.figures, to: $0.folder) }),
        (["family_links.csv"], { try FamilyLinksFile.write($0.figures, to: $0.folder) }),
        (["family_spend.csv"], { try FamilySpendFile.write($0.figures, to: $0.folder) }),
        (
            ["consumption_requests.csv", "consumption_responses.jsonl"],
            { try ConsumptionFiles.write($0.figures, to: $0.folder) }
        ),
        (["allocation.csv"], { try AllocationFile.write($0.figures, to: $0.folder) }),
        (
            ["report.html"],
            { try ReportPage.write($0.figures, conservation: $0.conservation, context: $0.context, to: $0.folder) }
        ),
    ]

    package static func write(
        _ figures: ReportFigures, conservation: Conservation, context: RunContext, to folder: String
    ) throws {
        let inputs = Inputs(figures: figures, conservation: conservation, context: context, folder: folder)
        // Each file is written from the figures alone: they are written side by side.
        _ = try Parallel.map(outputs.count, threads: FileSystem.processorCount) { try outputs[$0].write(inputs) }
    }

    /// The data files every run writes from its figures (the page aside), in the order they are described.
    package static var csvNames: [String] { outputs.flatMap(\.files).filter { $0 != "report.html" } }
}
