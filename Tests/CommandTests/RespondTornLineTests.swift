import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// A write that fails part-way and cannot be taken back leaves the tool's own torn last line.
/// Whether its request went to Apple depends on which line it was: a torn `sending` line was
/// never followed by a request; a torn `sent` line is Apple's 202, already taken.
extension RespondTests {
    /// Answers `data()`'s request once, then cuts the journal's last line (the `sent` line)
    /// after `keeping` of its bytes: what a full disk leaves.
    func journalWithTornSentLine(_ data: String, keeping: (String) -> String.Index) throws -> (String, String) {
        let stub = try APIStub([["status": 202]], label: "first")
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        #expect(try respond(data, stub: stub, journal: journal).status == 0)
        // The run wrote the sent line last but for its summary: the cut leaves no summary after it.
        let lines = try TestFiles.read(journal).split(separator: "\n").map(String.init)
        let index = try #require(lines.lastIndex { $0.contains("\"state\":\"sent\"") })
        #expect(lines[(index + 1)...].allSatisfy { $0.contains("\"state\":\"summary\"") }, "\(lines)")
        let sent = lines[index]
        let torn = lines[..<index].map { $0 + "\n" }.joined() + String(sent[..<keeping(sent)])
        try TestFiles.write(torn, to: journal)
        return (journal, sent)
    }

    /// A summary cut short followed the lines it summed up, reported by the run that wrote it:
    /// the refusal before it is not reported again, and nothing is sent.
    @Test func aTornSummaryLineCountsAsASummary() throws {
        let data = try data()
        let refusing = try APIStub([["status": 400, "body": ["errorCode": 4_000_185, "errorMessage": "family shared"]]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let refused = try respond(data, stub: refusing, journal: journal)
        #expect(refused.status == 1 && refused.stderr.contains("refused   request-1"), "\(refused.stdout)\(refused.stderr)")
        var lines = try TestFiles.read(journal).split(separator: "\n").map(String.init)
        let summary = try #require(lines.last)
        #expect(summary.hasPrefix("{\"state\":\"summary\""), "\(summary)")
        lines[lines.count - 1] = String(summary.prefix(50))
        try TestFiles.write(lines.joined(separator: "\n"), to: journal)

        let stub = try APIStub([["status": 202]])
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "reported once already: \(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("it was a run's summary"), "\(run.stderr)")
        #expect(!run.stderr.contains("refused   request-1"), "\(run.stderr)")
        #expect(stub.requests.isEmpty)
    }

    @Test func aTornSentLineIsRecognisedAsSent() throws {
        let data = try data()
        // Cut inside Apple's status, after the state and the times: the request was sent.
        let (journal, sent) = try journalWithTornSentLine(data) { line in
            line.range(of: "\"http_status\":20")?.upperBound ?? line.endIndex
        }
        let stub = try APIStub([["status": 202]])
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(stub.requests.isEmpty, "Apple took the answer already: it is not sent again")
        #expect(
            run.stderr.contains("journal.jsonl:3") && run.stderr.contains("cut short")
                && run.stderr.contains("Apple had taken the answer"), "\(run.stderr)")
        #expect(!run.stderr.contains("was not sent"), "\(run.stderr)")
        // The line is whole again: the event as far as it was read, with the body of its `sending` line.
        let text = try TestFiles.read(journal)
        #expect(text.hasSuffix("\n"))
        #expect(try journalStates(journal) == ["sending", "sent"])
        let mended = try #require(try journalLines(journal).last { $0["notificationUUID"] != nil })
        let original = try #require(try JSONSerialization.jsonObject(with: Data(sent.utf8)) as? [String: Any])
        for field in ["notificationUUID", "transactionId", "state", "at", "as_of", "attempt"] {
            #expect("\(mended[field] ?? "none")" == "\(original[field] ?? "none")", "\(field): \(mended)")
        }
        #expect(mended["http_status"] == nil, "a status cut in two is not guessed: \(mended)")
        #expect(
            (mended["body"] as? [String: Any])?["refundPreference"] as? String == "GRANT_PRORATED", "\(mended)")

        // A report over the journal counts the answer; a later run neither warns nor sends.
        let out = try TestFiles.temporaryDirectory("report")
        let report = try runTool([
            "report", "--data", data, "--month", "2026-10", "--out", out, "--journal", journal, "--as-of",
            "2026-11-01T00:00:00Z", "--quiet",
        ])
        #expect(report.status == 0, "\(report.stderr)")
        let row = try TestFiles.read(out + "/2026-10/consumption_requests.csv").split(separator: "\n")[1]
        #expect(row.contains(",sent,2026-10-04T13:00:00.000Z,true,,GRANT_PRORATED,"), "\(row)")
        let again = try respond(data, stub: stub, journal: journal)
        #expect(again.status == 0 && !again.stderr.contains("cut short"), "\(again.stderr)")
        #expect(stub.requests.isEmpty)
    }

    @Test func aSentLineTornBeforeItsStateIsSentAgainOnce() throws {
        // Cut inside the state: Apple's answer to the request that went out is not known, so
        // the same body goes again (PUT is idempotent: Apple keeps one answer).
        let data = try data()
        let (journal, _) = try journalWithTornSentLine(data) { line in
            line.range(of: "\"state\":\"se")?.upperBound ?? line.endIndex
        }
        let stub = try APIStub([["status": 202]])
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("cut short") && run.stderr.contains("not known"), "\(run.stderr)")
        #expect(stub.requests.count == 1)
        #expect(try journalStates(journal) == ["sending", "sending", "sent"])
    }
}
