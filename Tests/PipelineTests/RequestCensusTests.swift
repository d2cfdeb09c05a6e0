import Foundation
import Testing

@testable import Attribution
@testable import Ingest
@testable import Pipeline
@testable import Support
@testable import TestSupport

/// The request ids counted on disk first, so that the registry holds only those read more than once.
@Suite("Request ids counted first")
struct RequestCensusTests {
    /// A fixed key, so that a failure can be replayed.
    let hash = SipHash(key0: 0x0123_4567_89ab_cdef, key1: 0xfedc_ba98_7654_3210)

    func key(_ id: String) -> UInt64 {
        var bytes = Array(id.utf8)
        return bytes.withUnsafeMutableBytes { RequestEntry(id: hash.hash128(UnsafeRawBufferPointer($0)), content: 0).key }
    }

    func note(_ id: String, _ census: RequestCensus, _ pending: inout RequestCensus.Pending) throws {
        var bytes = Array(id.utf8)
        try bytes.withUnsafeMutableBytes { try census.note(UnsafeRawBufferPointer($0), in: &pending) }
    }

    /// Partitions follow the bytes to read: one for a small folder, one per 64 MB up to 256.
    @Test func partitionsFollowTheBytesToRead() throws {
        #expect(try RequestCensus(hash: hash, bytes: 0).partitionCount == 1)
        #expect(try RequestCensus(hash: hash, bytes: 64 << 20).partitionCount == 1)
        #expect(try RequestCensus(hash: hash, bytes: (64 << 20) + 1).partitionCount == 2)
        // The 3.2 GB of cost rows of a million accounts: 48 partitions' worth, 64 as a power of two.
        #expect(try RequestCensus(hash: hash, bytes: 3_200_000_000).partitionCount == 64)
        #expect(try RequestCensus(hash: hash, bytes: 1 << 45).partitionCount == 256)
    }

    /// Ids noted by two threads, each holding some in memory and writing others as its buffers
    /// fill: the ids noted twice or more are found, whichever thread noted them, and no other.
    @Test func theIdsNotedMoreThanOnceAreFoundAcrossThreadsAndPartitions() throws {
        let census = try RequestCensus(hash: hash, bytes: 1 << 40)
        #expect(census.partitionCount == 256)
        var first = census.pending()
        var second = census.pending()
        // 20,000 ids once each by the first thread (its buffers fill and are written), then
        // every seventh again by the second, and one id three times by the first.
        for n in 0..<20_000 { try note("r\(n)", census, &first) }
        for n in stride(from: 0, to: 20_000, by: 7) { try note("r\(n)", census, &second) }
        for _ in 0..<3 { try note("thrice", census, &first) }
        try census.write(&first)
        try census.write(&second)
        let expected = Set(stride(from: 0, to: 20_000, by: 7).map { key("r\($0)") } + [key("thrice")])
        let found = try census.repeatedKeys(threads: 2)
        // 0, 7, ... 19,999: 2,858 ids, and "thrice".
        #expect(found.count == 2_859)
        #expect(found == expected)
    }

    /// The census's files have no name from the start, and one cut inside an id is refused.
    ///
    /// The folder they are made in is gone at once, so a run that is killed leaves nothing
    /// behind. A partition cut inside an id (a disk that lost what was written) is refused, not
    /// read as fewer ids.
    @Test func theFilesHaveNoNameAndOneCutInsideAnIdIsRefused() throws {
        let temporary = try TestFiles.temporaryDirectory("census-tmp")
        let before = try FileManager.default.contentsOfDirectory(atPath: temporary)
        let many = try RequestCensus(hash: hash, bytes: 1 << 30, temporaryFolder: temporary)
        #expect(many.partitionCount == 16)
        let census = try RequestCensus(hash: hash, bytes: 0, temporaryFolder: temporary)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == before)
        var pending = census.pending()
        for n in 0..<10 { try note("id-\(n)", census, &pending) }
        try note("id-3", census, &pending)
        try census.write(&pending)
        #expect(try census.repeatedKeys(threads: 1) == [key("id-3")])
        try census.cutPartition(0, to: 8 * 11 - 3)
        let error = try #require(throws: CensusCutError.self) { try census.repeatedKeys(threads: 1) }
        #expect(error.diagnostic.message.contains("end inside an id"))
        #expect(error.diagnostic.message.contains("run the report again"))
    }

    /// A census that cannot make its files says where it tried and what to do.
    @Test func aTemporaryFolderThatCannotHoldTheCensusIsNamedWithTheFix() throws {
        let missing = try TestFiles.temporaryDirectory("census-missing") + "/not-there"
        let error = try #require(throws: SystemError.self) {
            try RequestCensus(hash: hash, bytes: 0, temporaryFolder: missing)
        }
        #expect(error.path == missing)
        #expect(error.diagnostic.message.contains("No such file or directory"))
        #expect(error.diagnostic.message.contains("point TMPDIR at a folder you can write"))
    }

    /// A cost file grown after it was planned is read, counted and checksummed to the length it
    /// had then, gzip included (a second gzip member appended, repeating an id, is not read), and
    /// a file replaced by another after it was planned is refused: the census and the reading
    /// never see two different files.
    @Test func theCountAndTheReadingSeeTheFilePlanned() throws {
        let data = try copyOfSample()
        let header = "timestamp,account_id,category,cost,currency,quantity,unit,request_id\n"
        let row = { (id: String) in "2026-10-05T10:00:00Z,acct-000001,compute,1.00,USD,,,\(id)\n" }
        let zipped = data + "/costs/z.csv.gz"
        let compressed = try Gzip.compress(Array((header + row("z1") + row("z2")).utf8), name: "z.csv")
        try Data(compressed).write(to: URL(fileURLWithPath: zipped))
        let plain = data + "/costs/p.csv"
        try TestFiles.write(header + row("p1") + row("p2"), to: plain)
        let plans = try ParallelCostReading.plan([zipped, plain], parts: 1)
        // Grown: another gzip member repeating z1, and a row repeating p1.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: zipped))
        handle.seekToEndOfFile()
        handle.write(Data(try Gzip.compress(Array(row("z1").utf8), name: "z.csv")))
        try handle.close()
        let appended = try FileHandle(forWritingTo: URL(fileURLWithPath: plain))
        appended.seekToEndOfFile()
        appended.write(Data(row("p1").utf8))
        try appended.close()
        func read() throws -> [CostFileSummary] {
            try ParallelCostReading.run(
                files: [zipped, plain], planned: plans, root: data, mapping: [:], template: nil, threads: 2,
                countsRequestsFirst: true
            ).summaries
        }
        let summaries = try read()
        #expect(summaries.map(\.rows) == [2, 2])
        #expect(summaries.map(\.duplicates) == [0, 0])
        // Written over in place, the same inode: its first bytes are no longer those planned.
        try TestFiles.write(header + row("p1") + row("p1"), to: plain)
        let rewritten = try #require(throws: CostFileChangedWhileReadError.self) { try read() }
        #expect(rewritten.diagnostic.file == plain)
        #expect(rewritten.diagnostic.message.contains("it was written over while the run read it"))
        // Replaced: another file renamed over the plain one, refused when it is opened.
        try TestFiles.write(header + row("p1") + row("p2"), to: plain + ".new")
        try FileSystem.rename(plain + ".new", to: plain)
        let replaced = try #require(throws: SystemError.self) { try read() }
        #expect(replaced.path == plain)
        #expect(replaced.diagnostic.message.contains("another file was put in its place while the run read it"))
        // The reading over, the path may hold any file again.
        #expect(PinnedFiles.pinned(plain) == nil)
    }

    /// Files whose ids nearly all come twice (an export read twice) are read with a registry of
    /// every id, which holds less than the repeated keys and their entries would.
    @Test func idsThatNearlyAllRepeatAreHeldAsBefore() throws {
        let data = try copyOfSample()
        let header = "timestamp,account_id,category,cost,currency,quantity,unit,request_id\n"
        var rows = ""
        for n in 0..<40 { rows += "2026-10-05T10:00:00Z,acct-000001,compute,1.00,USD,,,x\(n)\n" }
        let twice = data + "/costs/twice.csv"
        let once = data + "/costs/once.csv"
        try TestFiles.write(header + rows + rows, to: twice)
        try TestFiles.write(header + rows + "2026-10-05T10:00:00Z,acct-000001,compute,1.00,USD,,,x0\n", to: once)
        func holdsAnUnseenId(_ file: String) throws -> Bool {
            let plans = try ParallelCostReading.plan([file], parts: 1)
            let registry = try ParallelCostReading.registryOfRepeats(
                plans, mapping: [:], prices: PriceTable(), pooled: [], threads: 1, progress: { _, _ in })()
            // An id of no row of the file (a key no hash of these 40 ids gives, but for odds of 2⁻⁵⁹).
            _ = registry.claim(RequestEntry(route: 0, key: 0x5eed, content: 0))
            return registry.size.ids == 1
        }
        // 40 ids, each twice: every id is held.
        #expect(try holdsAnUnseenId(twice))
        // 40 ids, one of them twice: only it is held.
        #expect(try !holdsAnUnseenId(once))
    }

    /// A registry told the repeated ids answers every claim as one that holds every id, and holds
    /// the repeated ids alone.
    @Test func aRegistryOfTheRepeatedIdsClaimsAsOneOfEveryId() {
        let stream: [(String, UInt64)] = [
            ("a", 1), ("b", 1), ("a", 1), ("c", 5), ("a", 2), ("d", 1), ("c", 5), ("c", 6), ("e", 1),
        ]
        func entry(_ id: String, _ content: UInt64) -> RequestEntry {
            var bytes = Array(id.utf8)
            return bytes.withUnsafeMutableBytes { RequestEntry(id: hash.hash128(UnsafeRawBufferPointer($0)), content: content) }
        }
        let every = RequestRegistry(hash: hash)
        let repeatedOnly = RequestRegistry(hash: hash, repeatedKeys: [key("a"), key("c")])
        let claims = stream.map { every.claim(entry($0.0, $0.1)) }
        #expect(claims == [.first, .first, .repeated, .first, .conflicting, .first, .repeated, .conflicting, .first])
        #expect(stream.map { repeatedOnly.claim(entry($0.0, $0.1)) } == claims)
        #expect(every.size.ids == 5)
        #expect(repeatedOnly.size.ids == 2)
    }

    /// The reading with the ids counted first and the one that holds every id give the same
    /// counts, rejects and classes, on one thread or three: ids repeated inside a file and across
    /// files, reused with other content, in a file whose header is refused, and on a row refused.
    ///
    /// By hand: a.csv repeats r1 (same row: a duplicate) and reuses r2 with another cost (a
    /// conflict); b.csv repeats a.csv's r3 (a duplicate) and reuses r4 (a conflict), and its
    /// r9 row has no valid cost (rejected, so the later r9 is its first claim); c.csv's header
    /// has no cost column, none of its rows is read.
    @Test func countingFirstReadsAsHoldingEveryId() throws {
        let data = try copyOfSample()
        let header = "timestamp,account_id,category,cost,currency,quantity,unit,request_id\n"
        func row(_ day: Int, _ cost: String, _ id: String) -> String {
            "2026-10-\(String(day).leftPadded(to: 2))T10:00:00Z,acct-000001,compute,\(cost),USD,,,\(id)\n"
        }
        var a = header
        for n in 1...6 { a += row(n, "1.00", "r\(n)") }
        a += row(1, "1.00", "r1") + row(2, "9.00", "r2")
        var b = header + row(3, "1.00", "r3") + row(4, "7.00", "r4") + row(9, "oops", "r9") + row(9, "2.00", "r9")
        for n in 10...12 { b += row(n, "1.00", "r\(n)") }
        let c = "timestamp,account_id,category,currency,request_id\n2026-10-01T00:00:00Z,acct-000001,compute,USD,r1\n"
        try TestFiles.write(a, to: data + "/costs/a.csv")
        try TestFiles.write(b, to: data + "/costs/b.csv")
        try TestFiles.write(c, to: data + "/costs/c.csv")
        let window = try #require(ReportWindow(month: "2026-10"))
        var options = try reportOptions(data: data, out: try TestFiles.temporaryDirectory("out"), window: window)
        options.verifiedFilesRecord = nil
        let pipeline = Pipeline(options, rejects: RejectLog(keepingAll: true))
        let loaded = try pipeline.load()
        let attributor = pipeline.attributor(loaded)
        var readings: [(String, [CostFileSummary], [Reject], [UInt8])] = []
        for threads in [1, 3] {
            for countsFirst in [false, true] {
                let reading = try pipeline.attribute(
                    loaded, with: attributor, threads: threads, countsRequestsFirst: countsFirst)
                readings.append(
                    (
                        "\(threads) threads, counted first: \(countsFirst)", reading.summaries,
                        reading.headerRejects + reading.rowRejects,
                        try CompactCoder.encode(reading.totals.classByProduct)
                    ))
            }
        }
        let summary = { (file: String) in try #require(readings[0].1.first { $0.path.hasSuffix("/" + file) }) }
        // A conflict is a duplicate too.
        #expect(try summary("a.csv").duplicates == 2)
        #expect(try summary("a.csv").conflicts == 1)
        #expect(try summary("b.csv").duplicates == 2)
        #expect(try summary("b.csv").conflicts == 1)
        #expect(try summary("b.csv").rejected == 1)
        #expect(readings[0].2.contains { $0.file.hasSuffix("/c.csv") && $0.line == 1 })
        for other in readings.dropFirst() {
            #expect(other.1 == readings[0].1, "\(other.0)")
            #expect(other.2 == readings[0].2, "\(other.0)")
            #expect(other.3 == readings[0].3, "\(other.0)")
        }
        // Collected as `explain` collects an account's rows: the same counts either way.
        let sink = AccountCosts(accountID: "acct-000001", ledger: loaded.ledger, rates: loaded.rates, grace: options.grace)
        let usage = loaded.layout.costFiles
        let collected = try [false, true].map { countsFirst in
            try pipeline.collect(files: usage, spans: [:], into: sink, countsRequestsFirst: countsFirst).summaries
        }
        #expect(collected[0] == collected[1])
        #expect(collected[1].first { $0.path.hasSuffix("/b.csv") }?.conflicts == 1)
    }
}
