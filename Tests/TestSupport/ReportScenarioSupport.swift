import Attribution
import Foundation
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic
import Testing

/// Runs the real report on a fixture folder and reads its CSV files back by column name.
struct ReportResult {
    let folder: String
    let outcome: ReportOutcome

    func rows(_ file: String) throws -> [[String: String]] {
        let path = folder + "/" + file
        var header: [String] = []
        var rows: [[String: String]] = []
        try CSVReader.read(path: path) { record in
            if header.isEmpty {
                header = record.strings
            } else {
                rows.append(Dictionary(uniqueKeysWithValues: zip(header, record.strings)))
            }
        }
        return rows
    }

    /// The summary row of a product (the empty product for the rows of no product; totals.csv is the total).
    func summary(_ product: String) throws -> [String: String] {
        try #require(try rows("summary.csv").first { $0["product_id"] == product })
    }

    /// The one row of totals.csv.
    func totals() throws -> [String: String] {
        let rows = try rows("totals.csv")
        #expect(rows.count == 1)
        return try #require(rows.first)
    }

    func text(_ file: String) throws -> String { try TestFiles.read(folder + "/" + file) }
}

func runReport(
    _ root: String, month: String = "2026-10", asOf: Int64? = nil, grace: TimeSpan = .hours(1), label: String = #function
) throws -> ReportResult {
    let out = try TestFiles.temporaryDirectory(label + "-out")
    let window = try #require(ReportWindow(month: month))
    // The data is signed with a test chain whose root lies beside it (fixtures and Data/sample).
    var options = try reportOptions(data: root, out: out, window: window)
    if let asOf { options.asOf = Timestamp(milliseconds: asOf) }
    options.grace = grace
    let outcome = try ReportRun.execute(options)
    return ReportResult(folder: outcome.folder, outcome: outcome)
}
