import Foundation
import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Pipeline
@testable import Report
@testable import Support
@testable import Synthetic
@testable import TestSupport

/// The bundled sample's October report, byte for byte, against the golden copy in
/// `Tests/RefundCostTests/Golden/sample-2026-10/`.
///
/// The copy committed in `reports/2026-10/` (what a visitor opens) must equal it too. Re-record both
/// on purpose with `RECORD_GOLDENS=1 swift test`: a recording run fails, saying what it wrote, so it
/// is never taken for a pass; then review the diff.
@Suite("Golden report of Data/sample")
struct GoldenReportTests {
    static let files = ReportFiles.csvNames + ["rejects.csv", "run.json", "report.html"]

    /// run.json minus its timings, which are the one part that differs between runs (and are
    /// left out of the committed copies).
    static func stable(_ text: String, file: String) -> String {
        guard file == "run.json", let range = text.range(of: ",\n  \"timings\"") else { return text }
        return String(text[..<range.lowerBound]) + "\n}\n"
    }

    static var goldenFolder: String { TestFiles.packageRoot + "/Tests/Golden/sample-2026-10" }
    static var documentationFolder: String { TestFiles.packageRoot + "/reports/2026-10" }

    @Test func sampleOctoberMatchesTheGoldenReport() throws {
        let result = try runReport(TestFiles.packageRoot + "/Data/sample")
        if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
            var changed: [String] = []
            for folder in [Self.goldenFolder, Self.documentationFolder] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                for file in Self.files {
                    let actual = Self.stable(try result.text(file), file: file)
                    let path = folder + "/" + file
                    if (try? TestFiles.read(path)) != actual {
                        changed.append(HumanText.relative(path, to: TestFiles.packageRoot))
                    }
                    try TestFiles.write(actual, to: path)
                }
            }
            Issue.record(
                "RECORD_GOLDENS=1: recorded \(changed.count) changed golden files, review the diff: \(changed.joined(separator: ", "))"
            )
            return
        }
        for file in Self.files {
            let actual = Self.stable(try result.text(file), file: file)
            let expected = try TestFiles.read(Self.goldenFolder + "/" + file)
            #expect(
                actual == expected,
                "\(file) differs from Golden/sample-2026-10/\(file) (re-record with RECORD_GOLDENS=1 if intended):\(unifiedDiff(actual, expected))"
            )
        }
    }

    /// What a visitor sees in `reports/2026-10/` is what the code writes.
    @Test func committedSampleReportEqualsTheGolden() throws {
        for file in Self.files {
            let golden = try TestFiles.read(Self.goldenFolder + "/" + file)
            let committed = try TestFiles.read(Self.documentationFolder + "/" + file)
            #expect(committed == golden, "reports/2026-10/\(file) is not the golden copy; re-record with RECORD_GOLDENS=1")
        }
    }

    @Test func theSameInputsGiveTheSameBytes() throws {
        let root = TestFiles.packageRoot + "/Data/sample"
        let first = try runReport(root, label: "first")
        let second = try runReport(root, label: "second")
        for file in GoldenReportTests.files {
            #expect(
                GoldenReportTests.stable(try first.text(file), file: file)
                    == GoldenReportTests.stable(try second.text(file), file: file))
        }
    }

    /// Attribution split over two halves of the cost rows, merged, gives exactly the one-pass files.
    @Test func mergingPartialTotalsEqualsOnePass() throws {
        let root = TestFiles.packageRoot + "/Data/sample"
        let window = try #require(ReportWindow(month: "2026-10"))
        let rejects = RejectLog()
        let layout = try InputLayout(root: root)
        let sampleRoot = try Certificate.load(path: root + "/" + DatasetGenerator.testRootName).map(\.der)
        let signatures = SignaturePolicy(roots: [AppleRoot.g3] + sampleRoot, fallbackTime: window.end)
        let load = try AppStoreLoad(
            layout: layout, options: AppStoreOptions(asOf: window.end, signatures: signatures), rejects: rejects)
        let ledger = try Ledger(
            input: load.input, accountLinks: load.accountLinks, products: load.products,
            options: LedgerOptions(asOf: window.end), rejects: rejects)
        let rates = try ExchangeRates.read(path: layout.exchangeRates, reportCurrency: .usd, rejects: rejects)
        var whole = Attributor(ledger: ledger, window: window, grace: .hours(1), rates: rates)
        var odd = whole.emptyCopy()
        var even = whole.emptyCopy()
        let reader = CostFileReader(rejects: rejects)
        var index = 0
        for path in layout.costFiles {
            _ = try reader.read(path: path) { row in
                try whole.add(row)
                if index % 2 == 0 { try even.add(row) } else { try odd.add(row) }
                index += 1
            }
        }
        // Merge in the order that makes category ids differ from the one-pass order.
        var merged = odd.totals
        try merged.merge(even.totals)
        let mergedDraws = try whole.settle(&merged)
        var wholeTotals = whole.totals
        let wholeDraws = try whole.settle(&wholeTotals)
        let one = try ReportFigures(
            ledger: ledger, totals: wholeTotals, window: window, rates: rates, credits: whole.credits, draws: wholeDraws)
        let two = try ReportFigures(
            ledger: ledger, totals: merged, window: window, rates: rates, credits: whole.credits, draws: mergedDraws)
        let oneFolder = try TestFiles.temporaryDirectory("one")
        let twoFolder = try TestFiles.temporaryDirectory("two")
        try ReportFiles.write(
            one, conservation: try Conservation(figures: one, accepted: CostTotals()),
            context: RunContext(inputs: [], signatures: SignatureStatement()), to: oneFolder)
        try ReportFiles.write(
            two, conservation: try Conservation(figures: two, accepted: CostTotals()),
            context: RunContext(inputs: [], signatures: SignatureStatement()), to: twoFolder)
        #expect(index > 10_000)
        for file in ReportFiles.csvNames + ["report.html"] {
            #expect(
                try TestFiles.read(oneFolder + "/" + file) == TestFiles.read(twoFolder + "/" + file),
                "\(file) differs after merging")
        }
    }
}

/// Where two texts first differ, as `line N: "expected" / "actual"`, for failure messages.
func unifiedDiff(_ actual: String, _ expected: String) -> String {
    // A unified diff of the file (diff -U5, as one reviews it), cut to its first 60 lines.
    let folder = NSTemporaryDirectory() + "golden-diff-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try? expected.write(toFile: folder + "/expected", atomically: true, encoding: .utf8)
    try? actual.write(toFile: folder + "/actual", atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["diff", "-U5", folder + "/expected", folder + "/actual"]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return "no diff to show" }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
    return "\n" + lines.prefix(60).joined(separator: "\n") + (lines.count > 60 ? "\n... (\(lines.count - 60) more lines)" : "")
}
