import Attribution
import Foundation
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic

/// Runs the real report on a fixture folder and reads its CSV files back by column name.
struct ReportResult {
    let folder: String
    let outcome: ReportWritten

    func rows(_ file: String) throws -> [[String: String]] { try csvRows(folder + "/" + file) }

    /// The summary row of a product (the empty product for the rows of no product; totals.csv is the total).
    func summary(_ product: String) throws -> [String: String] {
        guard let row = try rows("summary.csv").first(where: { $0["product_id"] == product }) else {
            throw MissingInReport("summary.csv has no row for product '\(product)'")
        }
        return row
    }

    /// The one row of totals.csv.
    func totals() throws -> [String: String] {
        let rows = try rows("totals.csv")
        guard rows.count == 1, let row = rows.first else { throw MissingInReport("totals.csv has \(rows.count) rows, not 1") }
        return row
    }

    func text(_ file: String) throws -> String { try TestFiles.read(folder + "/" + file) }
}

func runReport(
    _ root: String, month: String = "2026-10", asOf: Int64? = nil, grace: TimeSpan = .hours(1), label: String = #function
) throws -> ReportResult {
    switch try reportOutcome(root, month: month, asOf: asOf, grace: grace, label: label) {
    case .succeeded(let written): return ReportResult(folder: written.folder, outcome: written)
    case .refused(let refused): throw MissingInReport("the report was refused: \(refused.reading.rejects.rows) rows rejected")
    case .failed(let diagnostic): throw MissingInReport("the report failed: \(diagnostic)")
    }
}

/// How the real report of a fixture folder ended, whichever way.
func reportOutcome(
    _ root: String, month: String = "2026-10", asOf: Int64? = nil, grace: TimeSpan = .hours(1), label: String = #function
) throws -> ReportOutcome {
    let out = try TestFiles.temporaryDirectory(label + "-out")
    guard let window = ReportWindow(month: month) else { throw MissingInReport("'\(month)' is not a month") }
    // The data is signed with a test chain whose root lies beside it (fixtures and Data/sample).
    var options = try reportOptions(data: root, out: out, window: window)
    if let asOf { options.asOf = Timestamp(milliseconds: asOf) }
    options.grace = grace
    return ReportRun.execute(options)
}

/// What a test expected in a report and did not find: the test fails with this message (the
/// support target stays free of the test framework, so release and static builds build it).
struct MissingInReport: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
