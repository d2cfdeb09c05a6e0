import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// `report --journal`: every answer respond sent, joined to how Apple decided the refund.
@Suite("report --journal: what answering earned")
struct AnsweringEarnedTests {
    let hour = AppStoreFixture.hour
    let day = AppStoreFixture.day

    @Test func declinesKeepThePriceAndGrantsRefundItsShare() throws {
        // Three packs of 500 credits at 9.99 USD, bought two days ago; refund requests signed
        // three hours ago (UNINTENDED_PURCHASE): a1 used 400 credits (DECLINE), a2 used 50 at a
        // cost of 0.75 (GRANT_PRORATED), a3 none (GRANT_FULL).
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let bought = now - 2 * day
        let requested = now - 3 * hour
        var fixture = AppStoreFixture()
        fixture.products += "credits.500,Consumable,,500\n"
        var packs: [String: [String: Any]] = [:]
        for (number, used) in [(1, 400), (2, 50), (3, 0)] {
            let id = "300000000000000\(number)"
            let pack = AppStoreFixture.transaction(
                id, product: "credits.500", type: "Consumable", purchase: bought, signed: bought)
            packs[id] = pack
            fixture.notify("ONE_TIME_CHARGE", uuid: "buy-\(number)", signed: bought, transaction: pack)
            fixture.link("a\(number)", id)
            if used > 0 { fixture.cost("a\(number)", at: bought + hour, number == 2 ? "0.75" : "6.00", credits: used) }
            fixture.notify(
                "CONSUMPTION_REQUEST", uuid: "request-\(number)", signed: requested + Int64(number) * 60_000, transaction: pack,
                reason: "UNINTENDED_PURCHASE")
        }
        fixture.consent =
            "account_id,consented,at\na1,true,2026-01-01T00:00:00Z\na2,true,2026-01-01T00:00:00Z\na3,true,2026-01-01T00:00:00Z\n"
        let data = try fixture.write()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let respond = try runTool([
            "respond", "--data", data, "--journal", journal, "--key", try privateTestKey(), "--key-id", "TEST123456",
            "--issuer-id", "issuer", "--bundle-id", "com.example.app", "--api-url", stub.url, "--max-wait", "20s",
        ])
        #expect(respond.status == 0 && respond.stdout.contains("3 sent"), "\(respond.stdout)\(respond.stderr)")

        // An hour later Apple declined a1's refund and refunded 90% of a2's.
        var decisions = AppStoreFixture()
        decisions.notify("REFUND_DECLINED", uuid: "declined-1", signed: now - hour, transaction: packs["3000000000000001"])
        var refunded = try #require(packs["3000000000000002"])
        refunded["revocationDate"] = now - hour
        refunded["revocationReason"] = 0
        refunded["revocationType"] = "REFUND_PRORATED"
        refunded["revocationPercentage"] = 90_000
        refunded["signedDate"] = now - hour
        decisions.notify("REFUND", uuid: "refund-2", signed: now - hour, transaction: refunded)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/notifications/n.jsonl"))
        handle.seekToEndOfFile()
        handle.write(Data(decisions.notificationLines.map { $0 + "\n" }.joined().utf8))
        try handle.close()

        let out = try TestFiles.temporaryDirectory("report")
        let from = Timestamp(milliseconds: now - 3 * day).civilDate
        let to = Timestamp(milliseconds: now + day).civilDate
        let label = "\(from)_\(to)"
        let report = try runTool([
            "report", "--data", data, "--from", "\(from)", "--to", "\(to)", "--out", out, "--journal", journal, "--as-of",
            Timestamp(milliseconds: now).description,
        ])
        #expect(report.status == 0, "\(report.stderr)")
        // Kept 9.99 on one declined refund; refunded 90% of 9.99 = 8.991 on one whose delivery cost 0.75.
        #expect(
            report.stdout.contains(
                "answering earned: Apple declined 1 of 3 answered refunds, keeping 9.990000 USD; it decided 2 of 2 as the answer "
                    + "preferred; it refunded 8.991000 USD on 1, whose delivery had cost 0.750000 USD"), "\(report.stdout)")

        let csv = try TestFiles.read(out + "/\(label)/consumption_requests.csv").split(separator: "\n").map(String.init)
        #expect(
            csv[0].hasSuffix(
                ",answer_state,answered_at,answered_in_time,apple_error_code,sent_preference,decided_as_preferred,price,price_kept,price_refunded"
            ), "\(csv[0])")
        // answered within 12 hours (true), no Apple error, then what the answer earned.
        let rows = Dictionary(uniqueKeysWithValues: csv.dropFirst().map { ($0.split(separator: ",")[1], $0) })
        #expect(rows["3000000000000001"]?.hasSuffix(",true,,DECLINE,true,9.990000,9.990000,") == true, "\(rows)")
        #expect(rows["3000000000000002"]?.hasSuffix(",true,,GRANT_PRORATED,true,9.990000,,8.991000") == true, "\(rows)")
        #expect(rows["3000000000000003"]?.hasSuffix(",true,,GRANT_FULL,,9.990000,,") == true, "\(rows)")

        let run = try #require(
            try JSONSerialization.jsonObject(with: Data(TestFiles.read(out + "/\(label)/run.json").utf8)) as? [String: Any])
        let answering = try #require(run["answering"] as? [String: Any])
        #expect(answering["answered"] as? Int == 3 && answering["answered_in_time"] as? Int == 3)
        #expect(answering["decided"] as? Int == 2 && answering["decided_as_preferred"] as? Int == 2)
        #expect(answering["declined"] as? Int == 1 && answering["granted"] as? Int == 1)
        #expect((answering["price_kept"] as? NSNumber)?.doubleValue == 9.99)
        #expect((answering["price_refunded"] as? NSNumber)?.doubleValue == 8.991)
        #expect((answering["delivery_cost_refunded"] as? NSNumber)?.doubleValue == 0.75)
        let byPreference = try #require(answering["by_preference_sent"] as? [String: [String: Int]])
        #expect(byPreference["DECLINE"] == ["granted": 0, "declined": 1, "pending": 0])
        #expect(byPreference["GRANT_PRORATED"] == ["granted": 1, "declined": 0, "pending": 0])
        #expect(byPreference["GRANT_FULL"] == ["granted": 0, "declined": 0, "pending": 1])

        let page = try TestFiles.read(out + "/\(label)/report.html")
        #expect(page.contains("Answering saved <b>9.99 USD</b>"), "\(page)")
        #expect(page.contains("Apple decided <b>2</b> as the answer preferred"))

        // Without the journal nothing of it is said, and run.json's answering is null.
        let plain = try TestFiles.temporaryDirectory("plain")
        #expect(
            try runTool([
                "report", "--data", data, "--from", "\(from)", "--to", "\(to)", "--out", plain, "--as-of",
                Timestamp(milliseconds: now).description, "--quiet",
            ]).status == 0)
        #expect(try TestFiles.read(plain + "/\(label)/run.json").contains("\"answering\": null"))
        #expect(!(try TestFiles.read(plain + "/\(label)/report.html")).contains("What answering earned"))
    }
}
