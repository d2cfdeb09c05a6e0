import Foundation
import Testing

@testable import Ingest
@testable import Pipeline
@testable import Support
@testable import TestSupport

/// Settling the request ids partition by partition gives, put together, the seeds of settling
/// every id at once: what lets `settle --part K/N` run on N machines.
@Suite("request-id partitions")
struct RequestPartTests {
    /// Per partial (by position in `claimsByPartial`, each partial's claims by file), the seeds
    /// it must be computed again with, over the ids of `part`: what settle works out.
    static func seeds(
        _ claimsByPartial: [[(file: String, claims: BlockList<RequestClaim>)]], fileOrder: [String], in part: RequestPart = .whole
    ) throws -> [[SeededClaim]] {
        var settlement = try DuplicateSettlement()
        for (index, claims) in claimsByPartial.enumerated() { try settlement.add(claims, partial: index, in: part) }
        var seeds = try settlement.settle(fileOrder: fileOrder).seeds
        seeds += Array(repeating: [], count: claimsByPartial.count - seeds.count)
        return seeds
    }

    @Test func partsReadAsWritten() {
        #expect(RequestPart("0/1") == .whole)
        #expect(RequestPart("3/8") == RequestPart(part: 3, parts: 8))
        for refused in ["", "3", "8/8", "-1/4", "1/0", "1/4097", "a/b", "1/2/3", " 1/2"] {
            #expect(RequestPart(refused) == nil, "\(refused) is not a part")
        }
        #expect(RequestPart(part: 2, parts: 5).name("p.partial", "seeds") == "p.partial.2-of-5.seeds")
        #expect(RequestPart.whole.name("p.partial", "seeds") == "p.partial.seeds")
    }

    @Test func everyIdIsInExactlyOnePart() {
        var random = SeededRandom(seed: 5)
        for _ in 0..<500 {
            let entry = RequestEntry(route: UInt8(random.next() % 256), key: random.next() | 1, content: 0)
            for parts in [1, 2, 3, 7, 64] {
                let holding = (0..<parts).filter { RequestPart(part: $0, parts: parts).contains(entry) }
                #expect(holding.count == 1)
            }
        }
    }

    @Test(arguments: [1, 2, 3, 5])
    func partsTogetherSettleAsTheWhole(parts: Int) throws {
        // Four partials over eight files, ids drawn from a small pool so that many repeat across
        // partials and within one; lines distinct within a file.
        var random = SeededRandom(seed: UInt64(40 + parts))
        let files = (0..<8).map { "costs/f\($0).csv" }
        let pool = (0..<60).map { _ in RequestEntry(route: UInt8(random.next() % 256), key: random.next() | 1, content: 0) }
        let claims: [[(file: String, claims: BlockList<RequestClaim>)]] = (0..<4).map { partial in
            [files[partial], files[partial + 4]].map { file in
                let lines = (0..<30).map { _ in 2 + Int(random.next() % 500) }
                let claimed: [RequestClaim] = Set(lines).sorted().map { line in
                    let id = pool[Int(random.next() % UInt64(pool.count))]
                    let content = RequestEntry(route: 0, key: 1, content: UInt32(random.next() % 3))
                    return RequestClaim(entry: id.withContent(of: content), line: line)
                }
                return (file, BlockList(claimed))
            }
        }
        let whole = try Self.seeds(claims, fileOrder: files)
        #expect(whole.contains { !$0.isEmpty }, "the pool repeats ids across partials")
        var together = Array(repeating: [SeededClaim](), count: claims.count)
        for part in 0..<parts {
            let split = RequestPart(part: part, parts: parts)
            for (index, seeds) in try Self.seeds(claims, fileOrder: files, in: split).enumerated() {
                #expect(seeds.allSatisfy { split.contains($0.entry) }, "a part settles its own ids only")
                together[index] += seeds
            }
        }
        for index in claims.indices {
            #expect(Set(together[index]) == Set(whole[index]))
            #expect(together[index].count == whole[index].count)
        }
    }

    /// A seed stands only where it was settled: the same id, content, file and line, claimed by
    /// another partial; a cost file in two partials is refused.
    @Test func seedsAreCheckedWhereTheyWereSettled() throws {
        let id = RequestEntry(route: 3, key: 77, content: 5)
        let claim = RequestClaim(entry: id, line: 9)
        let standing = SeededClaim(entry: id, file: "costs/a.csv", line: 9)
        func stale(_ seed: SeededClaim, claims: [(file: String, claims: BlockList<RequestClaim>)]) throws -> [Int] {
            var settlement = try DuplicateSettlement()
            try settlement.add(claims, partial: 0, in: .whole)
            try settlement.add([("costs/b.csv", [])], seeded: [seed], partial: 1, in: .whole)
            return try settlement.settle(fileOrder: ["costs/a.csv", "costs/b.csv"]).stale
        }
        #expect(try stale(standing, claims: [("costs/a.csv", [claim])]).isEmpty)
        #expect(try stale(standing, claims: [("costs/a.csv", [])]) == [1], "no one claims the id any more")
        #expect(try stale(standing, claims: [("costs/a.csv", [RequestClaim(entry: id, line: 10)])]) == [1], "moved")
        let otherContent = RequestClaim(entry: RequestEntry(route: 3, key: 77, content: 6), line: 9)
        #expect(try stale(standing, claims: [("costs/a.csv", [otherContent])]) == [1], "other content")
        var twice = try DuplicateSettlement()
        try twice.add([("costs/a.csv", [])], partial: 0, in: .whole)
        #expect(throws: MergeError.self) { try twice.add([("costs/a.csv", [])], partial: 1, in: .whole) }
    }

    /// A record left by a settle of another split (here the whole, over fewer partials) beside
    /// fresh records of two parts: the merge says to remove the records and settle one split,
    /// not to settle again (which would leave the old record, and say the same forever).
    @Test func recordsOfTwoSplitsAreSaidBeforeAStaleOne() throws {
        let data = try copyOfSample()
        let root = try TestFiles.temporaryDirectory("settled-splits")
        let arguments = ["--data", data, "--month", "2026-10", "--max-rejects", "10", "--quiet"]
        let parts = root + "/parts"
        try FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: true)
        let snapshot = root + "/s.snapshot"
        try #require(try runTool(["snapshot", "--snapshot", snapshot] + arguments).status == 0)
        func partial(_ file: String) throws {
            let run = try runTool(
                ["partial", "--snapshot", snapshot, "--file", file, "--partial", parts + "/\(file).partial"] + arguments)
            try #require(run.status == 0, "\(run.stderr)")
        }
        func settle(_ part: [String]) throws {
            let run = try runTool(["settle", "--snapshot", snapshot, "--partials", parts] + part)
            try #require(
                run.status == 0 && run.stdout.isEmpty, "the sample repeats no id across files: \(run.stdout)\(run.stderr)")
        }
        try partial("2026-08.csv")
        try partial("2026-09.csv")
        try settle([])
        try partial("2026-10.csv")
        try settle(["--part", "0/2"])
        try settle(["--part", "1/2"])
        let merge = ["merge", "--snapshot", snapshot, "--partials", parts, "--out", root + "/out"] + arguments
        let mixed = try runTool(merge)
        #expect(mixed.status == 1)
        #expect(
            mixed.stderr.contains("holds settlement records of request ids split 1 and 2 ways: remove its *.settled files"),
            "\(mixed.stderr)")
        try FileManager.default.removeItem(atPath: parts + "/request.settled")
        let merged = try runTool(merge)
        #expect(merged.status == 0, "\(merged.stderr)")
    }
}
