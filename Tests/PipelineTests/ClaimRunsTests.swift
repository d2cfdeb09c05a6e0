import Foundation
import Testing

@testable import Pipeline
@testable import Support

/// Claims kept on disk in runs sorted by id and read back merged: every claim once, ids in
/// order, an id's claims in the order their runs were added, across the blocks runs are
/// written and read in.
@Suite("Request-id claims on disk")
struct ClaimRunsTests {
    @Test func runsMergeByIdInTheOrderTheyWereAdded() throws {
        let runs = try ClaimRuns()
        var random = SeededRandom(seed: 3)
        // Three runs of 70,000, 10 and 40,000 claims (more than a block of 32,768 written and of
        // 4,096 read), ids from a pool so that many are in two or three runs.
        var expected: [UInt128: [(partial: Int32, line: Int)]] = [:]
        for (partial, count) in [(0, 70_000), (1, 10), (2, 40_000)] {
            var ids = Set<UInt128>()
            while ids.count < count { ids.insert(UInt128(random.next() % 150_000) << 64 | UInt128(random.next() % 3)) }
            var claims: [ClaimRuns.Claim] = []
            for id in ids {
                let line = Int(random.next() % 1_000_000) + 2
                claims.append(ClaimRuns.Claim(id: id, partial: Int32(partial), file: 7, line: line, content: UInt32(line % 5)))
                expected[id, default: []].append((Int32(partial), line))
            }
            try runs.add(&claims)
        }
        var seen: [UInt128] = []
        var claims = 0
        try runs.merged { id, group in
            seen.append(id)
            claims += group.count
            #expect(group.allSatisfy { $0.id == id && $0.file == 7 && $0.content == UInt32($0.line % 5) })
            #expect(group.map(\.partial) == expected[id]?.map(\.partial))
            #expect(group.map(\.line) == expected[id]?.map(\.line))
        }
        #expect(claims == 110_010)
        #expect(seen == expected.keys.sorted())
        #expect(seen.count == expected.count)
    }

    /// A run cut inside a claim (its folder changed under the step) is refused, never read short.
    @Test func aRunCutShortIsRefused() throws {
        let runs = try ClaimRuns()
        var one = [ClaimRuns.Claim(id: 5, partial: 0, file: 0, line: 2, content: 1)]
        try runs.add(&one)
        let run = runs.path + "/run-0"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: run))
        try bytes.dropLast(3).write(to: URL(fileURLWithPath: run))
        #expect(throws: ClaimRunError.self) { try runs.merged { _, _ in } }
    }
}
