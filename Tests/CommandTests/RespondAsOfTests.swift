import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// A trial over past data runs respond with `--as-of`: the journal says so beside each event's
/// real time, and a report over that journal judges the answers by it.
extension RespondTests {
    @Test func theJournalRecordsAsOfAndTheReportJudgesByIt() throws {
        // The request was signed on October 4 at 12:00; the trial answers it "at" 13:00 that day,
        // weeks ago by the real clock.
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0 && run.stdout.contains("1 sent"), "\(run.stdout)\(run.stderr)")
        let events = try journalLines(journal).filter { $0["notificationUUID"] != nil }
        #expect(events.map { $0["state"] as? String } == ["sending", "sent"])
        for event in events {
            #expect(event["as_of"] as? String == "2026-10-04T13:00:00.000Z", "\(event)")
            let at = try #require((event["at"] as? String).flatMap { TimestampParser.parse($0) })
            #expect(abs(Double(at.milliseconds) / 1000 - Date().timeIntervalSince1970) < 120, "at is the real time: \(event)")
        }
        #expect(try TestFiles.read(journal).contains("\"at\":\"\(events[1]["at"] ?? "")\",\"as_of\":"), "beside at")

        // The report judges the answer by as_of: sent an hour after the request, in time.
        let out = try TestFiles.temporaryDirectory("report")
        let report = try runTool([
            "report", "--data", data, "--month", "2026-10", "--out", out, "--journal", journal, "--as-of",
            "2026-11-01T00:00:00Z",
        ])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("answered within 12 hours 1 of 1 (from the journal)"), "\(report.stdout)")
        let rows = try TestFiles.read(out + "/2026-10/consumption_requests.csv").split(separator: "\n")
        // answer_state, answered_at (the trial's time), answered_in_time.
        #expect(rows[1].contains(",sent,2026-10-04T13:00:00.000Z,true,"), "\(rows[1])")
        #expect(!(try TestFiles.read(out + "/2026-10/report.html")).contains("<p class=\"alert\">"))
    }
}
