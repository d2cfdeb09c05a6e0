import Attribution
import Support

/// The report files that come from the figures alone (everything but rejects.csv and run.json).
package enum ReportFiles {
    package static func write(
        _ figures: ReportFigures, conservation: Conservation, context: RunContext, to folder: String
    ) throws {
        // Each file is written from the figures alone: they are written side by side.
        let writers: [@Sendable () throws -> Void] = [
            { try SummaryFile.write(figures, to: folder) },
            { try TrendFile.write(figures, to: folder) },
            { try CostByDayFile.write(figures, to: folder) },
            { try RefundsFile.write(figures, to: folder) },
            { try LeaksFile.write(figures, to: folder) },
            { try SubscriptionLossFile.write(figures, to: folder) },
            { try FamilyLinksFile.write(figures, to: folder) },
            { try FamilySpendFile.write(figures, to: folder) },
            { try ConsumptionFiles.write(figures, to: folder) },
            { try AllocationFile.write(figures, to: folder) },
            { try ReportPage.write(figures, conservation: conservation, context: context, to: folder) },
        ]
        _ = try Parallel.map(writers.count, threads: FileSystem.processorCount) { try writers[$0]() }
    }

    /// The CSV files every run writes from its figures, in the order they are described.
    package static let csvNames = [
        "summary.csv", "totals.csv", "trend.csv", "cost_by_day.csv", "refunds.csv", "leaks.csv", "subscription_loss.csv",
        "family_links.csv", "family_spend.csv",
        "consumption_requests.csv", "consumption_responses.jsonl", "allocation.csv",
    ]
}
