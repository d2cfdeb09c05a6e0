import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Pipeline
@testable import Report
@testable import Support
@testable import Synthetic

@Suite("Splitting files and reading them in parallel")
struct ParallelReadingTests {
    /// Parts cover the file exactly, start at record boundaries (never inside a quoted field
    /// with newlines) and know their first line; their records together are the file's.
    @Test(arguments: [2, 3, 7, 40])
    func splitsAtRecordBoundariesEvenInsideQuotedNewlines(parts: Int) throws {
        var text = "\u{FEFF}id,note\n"
        for index in 0..<400 {
            text += index % 5 == 0 ? "\(index),\"line one\nline two, \"\"quoted\"\"\nline three\"\n" : "\(index),plain \(index)\n"
        }
        let directory = try TestFiles.temporaryDirectory()
        let path = directory + "/quoted.csv"
        try TestFiles.write(text, to: path)
        let whole = try readRecords(path)
        let plan = try FileSplitter(path: path, parts: parts)
        #expect(plan.parts.count > 1)
        #expect(plan.parts.first?.start == 0)
        #expect(plan.parts.last?.end == plan.size)
        for (first, second) in zip(plan.parts, plan.parts.dropFirst()) { #expect(first.end == second.start) }
        var joined: [(line: Int, fields: [String])] = []
        for part in plan.parts {
            try CSVReader.read(part: part) { joined.append(($0.line, $0.strings)) }
        }
        #expect(joined.map(\.fields) == whole.map(\.fields))
        #expect(joined.map(\.line) == whole.map(\.line))
        #expect(plan.sha256 == (try SHA256.file(path)))
    }

    @Test func sha256MatchesKnownVectors() throws {
        let directory = try TestFiles.temporaryDirectory()
        try TestFiles.write("abc", to: directory + "/abc")
        #expect(try SHA256.file(directory + "/abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        try TestFiles.write("", to: directory + "/empty")
        #expect(try SHA256.file(directory + "/empty") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// One thread or four, the report's files are the same bytes.
    @Test func threadsDoNotChangeTheReport() throws {
        let root = TestFiles.packageRoot + "/Data/sample"
        let window = try #require(ReportWindow(month: "2026-10"))
        var texts: [[String]] = []
        for threads in [1, 4] {
            let out = try TestFiles.temporaryDirectory("threads-\(threads)")
            var options = try reportOptions(data: root, out: out, window: window)
            options.threads = threads
            let outcome = try ReportRun.execute(options)
            #expect(!outcome.readSequentially)
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
        let outcome = try ReportRun.execute(options)
        #expect(outcome.readSequentially)
        // The late 5.00 repeats r7 with other content: it is dropped, 3000 x 0.01 stay.
        #expect(try #require(outcome.figures?.summary.last).classes[.unlinked] == Money(nanos: 30_000_000_000))
    }
}
