import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// `report --journal`: every answer respond sent, joined to how Apple decided the refund after
/// it, beside how Apple decided the requests that got no answer.
@Suite("report --journal: what answering earned")
struct AnsweringEarnedTests {
    let hour = AppStoreFixture.hour
    let day = AppStoreFixture.day
    let minute: Int64 = 60_000
    /// 2026-10-10T12:00:00Z: the requests are signed from a minute after; respond answers "at"
    /// 13:00 (--as-of); Apple decides the next day, but for one decision signed at 12:30 that
    /// reached the server only after the answer went.
    var noon: Int64 { AppStoreFixture.october + 9 * day + 12 * hour }

    struct Request {
        var uuid: String
        var account: String
        var creditsUsed: Int
        var consent: Bool
        var reason = "UNINTENDED_PURCHASE"
        var signed: Int64
        /// "granted", "prorated" (90%), "declined" or nil, and when Apple signed it.
        var decision: String?
        var decided: Int64 = 0
    }

    /// Packs of 500 credits at 9.99 USD bought two days before each request.
    ///
    /// With UNINTENDED_PURCHASE, 0 credits used gives GRANT_FULL, some GRANT_PRORATED, half or more
    /// DECLINE (docs/outputs.md).
    var requests: [Request] {
        let next = noon + day + 10 * hour
        return [
            // Answered, decided after the answer: as preferred; against it; as preferred.
            Request(
                uuid: "r1", account: "a1", creditsUsed: 400, consent: true, signed: noon + 1 * minute, decision: "declined",
                decided: next),
            Request(
                uuid: "r2", account: "a2", creditsUsed: 0, consent: true, signed: noon + 2 * minute, decision: "declined",
                decided: next + 5 * minute),
            Request(
                uuid: "r3", account: "a3", creditsUsed: 50, consent: true, signed: noon + 3 * minute, decision: "prorated",
                decided: next + 10 * minute),
            // Answered, but Apple had decided at 12:30, before the answer at 13:00.
            Request(
                uuid: "r4", account: "a4", creditsUsed: 300, consent: true, signed: noon + 4 * minute, decision: "declined",
                decided: noon + 30 * minute),
            // Answered, no decision yet.
            Request(uuid: "r5", account: "a5", creditsUsed: 0, consent: true, signed: noon + 5 * minute),
            // Apple refuses the answer: no answer, and a request that needs a person.
            Request(uuid: "r6", account: "a6", creditsUsed: 0, consent: true, signed: noon + 6 * minute),
            // No consent, no answer: the baseline of the same reason and month.
            Request(
                uuid: "b1", account: "a7", creditsUsed: 0, consent: false, signed: noon + 7 * minute, decision: "granted",
                decided: next + 60 * minute),
            Request(
                uuid: "b2", account: "a8", creditsUsed: 0, consent: false, signed: noon + 8 * minute, decision: "granted",
                decided: next + 65 * minute),
            Request(
                uuid: "b3", account: "a9", creditsUsed: 0, consent: false, signed: noon + 9 * minute, decision: "declined",
                decided: next + 70 * minute),
            Request(uuid: "b4", account: "a10", creditsUsed: 0, consent: false, signed: noon + 10 * minute),
            // No answer, but another reason: not in the baseline.
            Request(
                uuid: "b5", account: "a11", creditsUsed: 0, consent: false, reason: "FULFILLMENT_ISSUE",
                signed: noon + 11 * minute, decision: "granted", decided: next + 75 * minute),
            // September: its 12 hours ended before the journal began; another month, not in the baseline.
            Request(
                uuid: "b6", account: "a12", creditsUsed: 0, consent: true, signed: noon - 20 * day, decision: "granted",
                decided: noon - 18 * day),
        ]
    }

    func transaction(_ number: Int, _ request: Request) -> [String: Any] {
        AppStoreFixture.transaction(
            "30000000000000\(String(number).leftPadded(to: 2))", product: "credits.500", type: "Consumable",
            purchase: request.signed - 2 * day, signed: request.signed - 2 * day)
    }

    /// Apple's decision on `request`, as its notification.
    func decide(_ request: Request, _ transaction: [String: Any], in fixture: inout AppStoreFixture) {
        guard let decision = request.decision else { return }
        if decision == "declined" {
            fixture.notify("REFUND_DECLINED", uuid: "decision-" + request.uuid, signed: request.decided, transaction: transaction)
            return
        }
        var refunded = transaction
        refunded["revocationDate"] = request.decided
        refunded["revocationReason"] = 0
        refunded["signedDate"] = request.decided
        if decision == "prorated" {
            refunded["revocationType"] = "REFUND_PRORATED"
            refunded["revocationPercentage"] = 90_000
        }
        fixture.notify("REFUND", uuid: "decision-" + request.uuid, signed: request.decided, transaction: refunded)
    }

    @Test func decisionsCountAfterTheAnswerKeptOnlyWhereItPreferredADeclineBesideABaseline() throws {
        var fixture = AppStoreFixture()
        fixture.products += "credits.500,Consumable,,500\n"
        var consent = "account_id,consented,at\n"
        var later = AppStoreFixture()
        for (number, request) in requests.enumerated() {
            let pack = transaction(number + 1, request)
            fixture.notify("ONE_TIME_CHARGE", uuid: "buy-" + request.uuid, signed: request.signed - 2 * day, transaction: pack)
            fixture.link(request.account, pack["transactionId"] as? String ?? "")
            consent += "\(request.account),\(request.consent),2026-01-01T00:00:00Z\n"
            if request.creditsUsed > 0 {
                let cost = ["a1": "6.00", "a3": "0.75", "a4": "4.00"][request.account] ?? "1.00"
                fixture.cost(request.account, at: request.signed - day, cost, credits: request.creditsUsed)
            }
            fixture.notify(
                "CONSUMPTION_REQUEST", uuid: request.uuid, signed: request.signed, transaction: pack, reason: request.reason)
            // September's decision is there from the start; October's arrive after the answers.
            if request.uuid == "b6" { decide(request, pack, in: &fixture) } else { decide(request, pack, in: &later) }
        }
        fixture.consent = consent
        let data = try fixture.write()
        let refusal: [String: Any] = ["status": 400, "body": ["errorCode": 4_000_185, "errorMessage": "family shared"]]
        let stub = try APIStub(Array(repeating: ["status": 202], count: 5) + [refusal])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let respond = try runTool([
            "respond", "--data", data, "--journal", journal, "--key", try privateTestKey(), "--key-id", "TEST123456",
            "--issuer-id", "issuer", "--bundle-id", "com.example.app", "--api-url", stub.url, "--max-wait", "20s",
            "--as-of", "2026-10-10T13:00:00Z",
        ])
        #expect(respond.status == 1, "r6 refused: \(respond.stdout)\(respond.stderr)")
        #expect(respond.stdout.contains("11 open requests: 5 sent, 1 refused, 0 failed, 5 skipped"), "\(respond.stdout)")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/notifications/n.jsonl"))
        handle.seekToEndOfFile()
        handle.write(Data(later.notificationLines.map { $0 + "\n" }.joined().utf8))
        try handle.close()

        let out = try TestFiles.temporaryDirectory("report")
        let report = try runTool([
            "report", "--data", data, "--from", "2026-09-01", "--to", "2026-11-01", "--out", out, "--journal", journal,
            "--as-of", "2026-11-01T00:00:00Z",
        ])
        #expect(report.status == 0, "\(report.stderr)")
        let folder = out + "/2026-09-01_2026-11-01"

        // Each request's row, by hand. The answers went at 13:00, within 12 hours; r4's decline
        // (12:30) came before it, so it counts for nothing; r2's decline came against the answer.
        let rows = Dictionary(
            uniqueKeysWithValues: try csvRows(folder + "/consumption_requests.csv").map { ($0["notification_uuid"] ?? "", $0) })
        let columns = [
            "answer_state", "answered_at", "answered_in_time", "apple_error_code", "sent_preference", "decided_as_preferred",
            "price", "price_kept", "price_refunded", "before_journal", "decided_before_answer",
        ]
        let answer = "2026-10-10T13:00:00.000Z"
        let expected: [String: [String]] = [
            "r1": ["sent", answer, "true", "", "DECLINE", "true", "9.990000", "9.990000", "", "false", "false"],
            "r2": ["sent", answer, "true", "", "GRANT_FULL", "false", "9.990000", "", "", "false", "false"],
            "r3": ["sent", answer, "true", "", "GRANT_PRORATED", "true", "9.990000", "", "8.991000", "false", "false"],
            "r4": ["sent", answer, "true", "", "DECLINE", "", "9.990000", "", "", "false", "true"],
            "r5": ["sent", answer, "true", "", "GRANT_FULL", "", "9.990000", "", "", "false", "false"],
            "r6": ["refused", answer, "false", "4000185", "", "", "9.990000", "", "", "false", "false"],
            "b1": ["skipped", "", "false", "", "", "", "9.990000", "", "", "false", "false"],
            "b5": ["skipped", "", "false", "", "", "", "9.990000", "", "", "false", "false"],
            "b6": ["missed", "", "false", "", "", "", "9.990000", "", "", "true", "false"],
        ]
        for (uuid, values) in expected {
            let row = try #require(rows[uuid], "\(uuid)")
            #expect(columns.map { row[$0] ?? "absent" } == values, "\(uuid): \(row)")
        }
        #expect(rows["r4"]?["outcome"] == "declined" && rows["b6"]?["outcome"] == "granted")

        // run.json, by hand: of 5 answered, 3 decided after the answer (r1, r2, r3), 2 as
        // preferred (r1, r3), 1 before it (r4); kept 9.99 (r1) as the answer asked, 9.99 (r2)
        // against it; refunded 90% of 9.99 = 8.991 on r3, whose delivery cost 0.75. Without an
        // answer, of the same reason and month: r6, b1, b2, b3, b4 (b5's reason and b6's month
        // differ): 2 granted, 1 declined, 2 pending.
        let run = try #require(
            try JSONSerialization.jsonObject(with: Data(TestFiles.read(folder + "/run.json").utf8)) as? [String: Any])
        let answering = try #require(run["answering"] as? [String: Any])
        func count(_ name: String) -> Int? { answering[name] as? Int }
        func money(_ name: String) -> Double? { (answering[name] as? NSNumber)?.doubleValue }
        #expect(count("requests") == 12 && count("answered") == 5 && count("answered_in_time") == 5)
        #expect(count("decided") == 3 && count("decided_as_preferred") == 2 && count("decided_before_answer") == 1)
        #expect(count("declined") == 2 && money("price_kept") == 9.99)
        #expect(count("declined_against_answer") == 1 && money("price_kept_against_answer") == 9.99)
        #expect(count("granted") == 1 && money("price_refunded") == 8.991 && money("delivery_cost_refunded") == 0.75)
        #expect(count("price_unknown") == 0)
        let byPreference = try #require(answering["by_preference_sent"] as? [String: [String: Int]])
        #expect(byPreference["DECLINE"] == ["granted": 0, "declined": 1, "pending": 0, "decided_before_answer": 1])
        #expect(byPreference["GRANT_FULL"] == ["granted": 0, "declined": 1, "pending": 1, "decided_before_answer": 0])
        #expect(byPreference["GRANT_PRORATED"] == ["granted": 1, "declined": 0, "pending": 0, "decided_before_answer": 0])
        #expect(
            answering["unanswered_same_reasons_and_months"] as? [String: Int] == [
                "requests": 5, "granted": 2, "declined": 1, "pending": 2,
            ])
        let figures = try #require(run["figures"] as? [String: Any])
        #expect(figures["consumption_answered_in_time"] as? Int == 5)
        #expect(figures["consumption_before_journal"] as? Int == 1 && figures["consumption_needing_attention"] as? Int == 1)

        #expect(
            report.stdout.contains(
                "answering earned: Apple declined 1 refund after an answer that preferred it, keeping 9.990000 USD; "
                    + "it decided 2 of 3 as the answer preferred (1 more decided before the answer, not counted); "
                    + "it refunded 8.991000 USD on 1, whose delivery had cost 0.750000 USD; "
                    + "without an answer (the same reasons and months) it declined 1 of 3 it decided"), "\(report.stdout)")
        #expect(
            report.stdout.contains("answered within 12 hours 5 of 11 (from the journal); 1 more ended before the journal began"),
            "\(report.stdout)")

        // The page: only what answering can claim, the baseline beside it, what the comparison
        // proves, and only the request that needs a person.
        let page = try TestFiles.read(folder + "/report.html")
        #expect(page.contains("Answering saved <b>9.99 USD</b>"), "\(page)")
        #expect(page.contains("Apple also declined 1 after an answer that asked it to grant the refund"))
        #expect(
            page.contains(
                ">no answer (the same reasons and months)</td><td data-label=\"Apple granted\" class=\"n\">2</td>"
                    + "<td data-label=\"Apple declined\" class=\"n\">1</td><td data-label=\"no decision yet\" class=\"n\">2</td>"
            ))
        #expect(page.contains("does not prove"))
        #expect(page.contains("1 refund request needs attention"))
        #expect(
            page.contains("\"request\">r6</td>") && !page.contains("\"request\">r1</td>")
                && !page.contains("\"request\">b6</td>"))
        #expect(page.contains("Answered within 12 hours: <b>5 of 11</b>"))

        // Without the journal nothing of it is said, and run.json's answering is null.
        let plain = try TestFiles.temporaryDirectory("plain")
        #expect(
            try runTool([
                "report", "--data", data, "--from", "2026-09-01", "--to", "2026-11-01", "--out", plain, "--as-of",
                "2026-11-01T00:00:00Z", "--quiet",
            ]).status == 0)
        #expect(try TestFiles.read(plain + "/2026-09-01_2026-11-01/run.json").contains("\"answering\": null"))
        #expect(!(try TestFiles.read(plain + "/2026-09-01_2026-11-01/report.html")).contains("What answering earned"))
    }
}
