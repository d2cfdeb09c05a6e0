import Foundation
import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Pipeline
@testable import Report
@testable import Support
@testable import TestSupport

@Suite("Reading cost files in parallel")
struct ParallelReadingTests {
    /// One thread or four, the report's files are the same bytes.
    @Test func threadsDoNotChangeTheReport() throws {
        let root = TestFiles.packageRoot + "/Data/sample"
        let window = try #require(ReportWindow(month: "2026-10"))
        var texts: [[String]] = []
        for threads in [1, 4] {
            let out = try TestFiles.temporaryDirectory("threads-\(threads)")
            var options = try reportOptions(data: root, out: out, window: window)
            options.threads = threads
            let outcome = try #require(ReportRun.execute(options).written)
            #expect(!outcome.reading.readSequentially)
            texts.append(try (ReportFiles.csvNames + ["rejects.csv"]).map { try TestFiles.read(outcome.folder + "/" + $0) })
        }
        #expect(texts[0] == texts[1])
    }

    /// A request id reused with different content: the first in file order wins, whatever
    /// the threads did, so the run reads again in order and says so.
    @Test func aConflictingRequestIdFallsBackToFileOrder() throws {
        var fixture = AppStoreFixture()
        fixture.costs = "timestamp,account_id,category,cost,currency,quantity,unit,request_id\n"
        for index in 0..<3000 {
            fixture.costs += "2026-10-05T00:00:00Z,anon,api,0.01,USD,,,r\(index)\n"
        }
        fixture.costs += "2026-10-06T00:00:00Z,anon,api,5.00,USD,,,r7\n"
        let root = try fixture.write()
        let window = try #require(ReportWindow(month: "2026-10"))
        var options = try reportOptions(data: root, out: try TestFiles.temporaryDirectory("out"), window: window)
        options.threads = 2
        let outcome = try #require(ReportRun.execute(options).written)
        #expect(outcome.reading.readSequentially)
        // The late 5.00 repeats r7 with other content: it is dropped, 3000 x 0.01 stay.
        #expect(try #require(outcome.figures.summary.last).classes[.unlinked] == Money(nanos: 30_000_000_000))
    }

    /// A request id repeated on usage a pool pays for reads again in file order.
    ///
    /// The copy that counts decides which row gets the chat day's left-over micro-unit. By hand (the pool fixture, whose last line repeats u-4 of line 5): 10.00 over the chat
    /// day's three rows of 12 October is 3.333333 each and one micro-unit left, which goes to
    /// the first in file order, acct-000001's (paid): 3.333334 + 3.333333 paid, 3.333333 for
    /// acct-000002 after its family exit.
    @Test func aRepeatedPooledRequestIdFallsBackToFileOrder() throws {
        let data = try copyOfSample()
        let pools = TestFiles.fixture("cost-pools") + "/"
        for file in ["focus-2026-10.csv", "usage-2026-10.csv"] {
            try FileManager.default.copyItem(atPath: pools + file, toPath: data + "/costs/" + file)
        }
        try FileManager.default.copyItem(atPath: pools + "allocation.csv", toPath: data + "/allocation.csv")
        let window = try #require(ReportWindow(month: "2026-10"))
        for threads in [1, 4] {
            var options = try reportOptions(
                data: data, out: try TestFiles.temporaryDirectory("pooled-\(threads)"), window: window)
            options.threads = threads
            let outcome = try #require(ReportRun.execute(options).written)
            #expect(outcome.reading.readSequentially == (threads > 1), "\(threads) threads")
            let days = try TestFiles.read(outcome.folder + "/cost_by_day.csv")
            #expect(days.contains("2026-10-12,chat,paid,USD,2,6.666667\n"), "\(threads) threads")
            #expect(days.contains("2026-10-12,chat,after_family_exit,USD,1,3.333333\n"), "\(threads) threads")
        }
    }
}
