import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// An answer Apple can no longer use is not sent: a request whose decision the data already
/// holds (a REFUND, REFUND_DECLINED or REVOKE of its transaction signed after it) is journaled
/// skipped with that reason, by both ways respond reads the data.
extension RespondTests {
    /// Four consented requests signed from 12:00 on October 4, read as of 13:00: Apple refunded
    /// the first at 12:30, declined the second at 12:40, revoked the third (a family member's
    /// lifetime unlock) at 12:50; the fourth's pack was declined once before its request, which
    /// decides nothing of it.
    func decidedData(everything: Bool, label: String = #function) throws -> String {
        var fixture = AppStoreFixture()
        fixture.products += "credits.500,Consumable,,500\n"
        let bought = requestSigned - 2 * day
        let minute: Int64 = 60_000
        var consent = "account_id,consented,at\n"
        for number in 1...4 {
            let id = "200000000000010\(number)"
            let family = number == 3
            let transaction = AppStoreFixture.transaction(
                id, product: family ? "pro.lifetime" : "credits.500", ownership: family ? "FAMILY_SHARED" : "PURCHASED",
                type: family ? "Non-Consumable" : "Consumable", purchase: bought, signed: bought)
            fixture.notify("ONE_TIME_CHARGE", uuid: "charge-\(number)", signed: bought, transaction: transaction)
            fixture.link("a\(number)", id)
            consent += "a\(number),true,\(Timestamp(milliseconds: bought - day))\n"
            let signed = requestSigned + Int64(number - 1) * minute
            if number == 4 {
                fixture.notify("REFUND_DECLINED", uuid: "declined-before", signed: signed - hour, transaction: transaction)
            }
            fixture.notify(
                "CONSUMPTION_REQUEST", uuid: "request-\(number)", signed: signed, transaction: transaction,
                reason: "UNINTENDED_PURCHASE")
            let decided = requestSigned + Int64(20 + 10 * number) * minute
            switch number {
            case 1:
                var refunded = transaction
                refunded["revocationDate"] = decided
                refunded["revocationReason"] = 0
                refunded["signedDate"] = decided
                fixture.notify("REFUND", uuid: "refund-1", signed: decided, transaction: refunded)
            case 2:
                fixture.notify("REFUND_DECLINED", uuid: "declined-2", signed: decided, transaction: transaction)
            case 3:
                // The member left the family: a REVOKE with no revocationDate.
                var revoked = transaction
                revoked["signedDate"] = decided
                fixture.notify("REVOKE", uuid: "revoke-3", signed: decided, transaction: revoked)
            default:
                break
            }
        }
        fixture.consent = consent
        let data = try fixture.write(label)
        if everything {
            // A FOCUS bill is spread over all usage at once: respond reads every file, as a report does.
            try FileManager.default.copyItem(
                atPath: TestFiles.fixture("cost-pools/focus-2026-10.csv"), toPath: data + "/costs/focus-2026-10.csv")
            try FileManager.default.copyItem(
                atPath: TestFiles.fixture("cost-pools/allocation.csv"), toPath: data + "/allocation.csv")
        }
        return data
    }

    @Test(arguments: [false, true])
    func aRequestAppleAlreadyDecidedIsSkippedNeverSent(everything: Bool) throws {
        let label = "\(#function)\(everything)"
        let data = try decidedData(everything: everything, label: label)
        let stub = try APIStub([["status": 202]], label: label)
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("FOCUS bill") == everything, "\(run.stderr)")
        #expect(stub.requests.map(\.path) == ["/inApps/v2/transactions/consumption/2000000000000104"], "\(run.stdout)")
        let events = try journalLines(journal).filter { $0["notificationUUID"] != nil }
        let skipped = Dictionary(
            events.filter { $0["state"] as? String == "skipped" }.map {
                ($0["notificationUUID"] as? String ?? "", $0["reason"] as? String ?? "")
            }, uniquingKeysWith: { first, _ in first })
        #expect(
            skipped == [
                "request-1": "Apple already granted the refund (2026-10-04T12:30:00.000Z)",
                "request-2": "Apple already declined the refund (2026-10-04T12:40:00.000Z)",
                "request-3": "Apple already granted the refund (2026-10-04T12:50:00.000Z)",
            ], "\(events)")
        #expect(run.stdout.contains("skipped  request-1  transaction 2000000000000101: Apple already granted"), "\(run.stdout)")
        #expect(run.stdout.contains("1 sent") && run.stdout.contains("3 skipped"), "\(run.stdout)")
    }

    @Test func anAnswerThatFailedIsNotSentAgainOnceAppleDecided() throws {
        // The first answer found no Apple (500s until --max-wait); Apple refunded before the next run.
        var fixture = AppStoreFixture()
        fixture.products += "credits.500,Consumable,,500\n"
        let bought = requestSigned - 2 * day
        let pack = AppStoreFixture.transaction(
            "2000000000000101", product: "credits.500", type: "Consumable", purchase: bought, signed: bought)
        fixture.notify("ONE_TIME_CHARGE", uuid: "charge-1", signed: bought, transaction: pack)
        fixture.link("a1", "2000000000000101")
        fixture.notify("CONSUMPTION_REQUEST", uuid: "request-1", signed: requestSigned, transaction: pack, reason: "OTHER")
        fixture.consent = "account_id,consented,at\na1,true,\(Timestamp(milliseconds: bought - day))\n"
        let data = try fixture.write()
        let down = try APIStub([["status": 500]], label: "down")
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let failed = try respond(data, stub: down, journal: journal, extra: ["--max-wait", "1s"])
        #expect(failed.status == 1, "\(failed.stdout)")
        #expect(try journalStates(journal) == ["sending", "failed"])

        var refunded = pack
        refunded["revocationDate"] = requestSigned + 2 * hour
        refunded["revocationReason"] = 0
        refunded["signedDate"] = requestSigned + 2 * hour
        var later = AppStoreFixture()
        later.notify("REFUND", uuid: "refund-1", signed: requestSigned + 2 * hour, transaction: refunded)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/notifications/n.jsonl"))
        handle.seekToEndOfFile()
        handle.write(Data(later.notificationLines.map { $0 + "\n" }.joined().utf8))
        try handle.close()
        let stub = try APIStub([["status": 202]])
        let run = try respond(
            data, stub: stub, journal: journal, extra: ["--as-of", Timestamp(milliseconds: requestSigned + 3 * hour).description])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(stub.requests.isEmpty, "the body recorded is not sent again: Apple decided")
        #expect(try journalStates(journal) == ["sending", "failed", "skipped"])
        #expect(try TestFiles.read(journal).contains("Apple already granted the refund (2026-10-04T14:00:00.000Z)"))
    }
}
