import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// `generate --hold-after` and `--release-after`: more of the same data later, appended to
/// the same files as servers append, for trying respond over a day.
@Suite("generate: data held back and released in slices")
struct GenerateReleaseTests {
    static let options = ["--accounts", "400", "--seed", "5", "--open-requests", "6", "--quiet"]
    /// The open requests are signed every 10 minutes from 23:00 on October 31.
    static let first = "2026-10-31T23:15:00Z"
    static let second = "2026-10-31T23:35:00Z"

    func generate(_ out: String, _ extra: [String] = []) throws -> ToolRun {
        try runTool(["generate", "--out", out] + Self.options + extra)
    }

    func files(under root: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                found[path] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
            }
        }
        return found
    }

    /// When each line of a notification or cost file arrived: its `receivedAt`, its timestamp.
    func arrivals(_ root: String) throws -> [Timestamp] {
        var times: [Timestamp] = []
        for (path, data) in try files(under: root) where path.hasPrefix("notifications/") || path.hasPrefix("costs/") {
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                if let range = line.range(of: "\"receivedAt\":\"") {
                    times += [TimestampParser.parse(String(line[range.upperBound...].prefix(24)))].compactMap { $0 }
                } else if path.hasPrefix("costs/"), let time = TimestampParser.parse(String(line.prefix(24))) {
                    times.append(time)
                }
            }
        }
        return times
    }

    @Test func releasedSlicesAppendedTogetherEqualOneRunByteForByte() throws {
        let root = try TestFiles.temporaryDirectory("release")
        let whole = root + "/whole"
        let sliced = root + "/sliced"
        #expect(try generate(whole).status == 0)
        let held = try generate(sliced, ["--hold-after", Self.first])
        #expect(held.status == 0, "\(held.stderr)")
        // Nothing that arrived after the time is there yet.
        let firstTime = try #require(TimestampParser.parse(Self.first))
        let heldTimes = try arrivals(sliced)
        #expect(!heldTimes.isEmpty && heldTimes.allSatisfy { $0 <= firstTime })
        #expect(try arrivals(whole).contains { $0 > firstTime })

        // A release after another time than the last hold changes nothing, and says so.
        let before = try files(under: sliced)
        let wrong = try generate(sliced, ["--release-after", Self.second])
        #expect(wrong.status == 1 && wrong.stderr.contains("--release-after must be the time"), "\(wrong.stderr)")
        #expect(try files(under: sliced) == before)

        #expect(try generate(sliced, ["--release-after", Self.first, "--hold-after", Self.second]).status == 0)
        #expect(try generate(sliced, ["--release-after", Self.second]).status == 0)
        let expected = try files(under: whole)
        let got = try files(under: sliced)
        #expect(got.keys.sorted() == expected.keys.sorted())
        for (path, data) in expected { #expect(got[path] == data, "\(path) differs") }
    }

    @Test func respondAnswersEachSliceAsItArrives() throws {
        let root = try TestFiles.temporaryDirectory("release-respond")
        let data = root + "/data"
        #expect(try generate(data, ["--hold-after", Self.first]).status == 0)
        let stub = try APIStub([["status": 202]])
        let journal = root + "/journal.jsonl"
        func respond(asOf: String) throws -> ToolRun {
            try runTool([
                "respond", "--data", data, "--journal", journal, "--key", try privateTestKey(), "--key-id", "TEST123456",
                "--issuer-id", "issuer", "--bundle-id", "com.example.app", "--api-url", stub.url, "--as-of", asOf,
            ])
        }
        // Signed 23:00 and 23:10: answered as of 23:15. Then 23:20 and 23:30 arrive, then the rest.
        let first = try respond(asOf: Self.first)
        #expect(first.stdout.contains("2 sent"), "\(first.stdout)\(first.stderr)")
        #expect(try generate(data, ["--release-after", Self.first, "--hold-after", Self.second]).status == 0)
        let second = try respond(asOf: Self.second)
        #expect(second.stdout.contains("2 sent") && second.stdout.contains("read what arrived"), "\(second.stdout)")
        #expect(try generate(data, ["--release-after", Self.second]).status == 0)
        let third = try respond(asOf: "2026-11-01T00:00:00Z")
        #expect(third.stdout.contains("2 sent"), "\(third.stdout)")
        #expect(Set(stub.requests.map(\.path)).count == 6, "each request once")
    }

    @Test func aBillIsNotHeldBack() throws {
        let out = try TestFiles.temporaryDirectory("release-focus") + "/data"
        let run = try generate(out, ["--cost-form", "focus", "--hold-after", Self.first])
        #expect(run.status == 2 && run.stderr.contains("FOCUS bill is written whole"), "\(run.stderr)")
    }
}
