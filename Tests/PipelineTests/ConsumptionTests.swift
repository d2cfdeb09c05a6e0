import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Pipeline
@testable import Report
@testable import Support
@testable import Synthetic
@testable import TestSupport

@Suite("Consumption requests and credit packs")
struct ConsumptionTests {
    typealias F = AppStoreFixture
    let t0 = AppStoreFixture.october
    let h = AppStoreFixture.hour
    let d = AppStoreFixture.day

    static func pack(_ id: String, purchase: Int64, signed: Int64, extra: [String: Any] = [:]) -> [String: Any] {
        F.transaction(
            id, product: "credits.pack", type: "Consumable", purchase: purchase, signed: signed,
            extra: ["price": 4990].merging(extra) { $1 })
    }

    /// P: a 5,000-credit pack, 4,000 used before asking for a refund (declined).
    ///
    /// Q: a pack with 1,000 credits used, asks unconsented, refunded, then draws 100 more.
    /// S: a monthly subscription asked about on day 6. V: a pack Apple's outage never delivered.
    func month() -> F {
        var fixture = F()
        fixture.products += "credits.pack,Consumable,,5000\npro.monthly,Auto-Renewable Subscription,P1M,\n"
        fixture.consent =
            "account_id,consented,at\np,true,2026-09-30T00:00:00Z\ns,true,2026-09-30T00:00:00Z\nv,yes,2026-09-30T00:00:00Z\nq,false,2026-09-30T00:00:00Z\n"
        fixture.deliveries =
            "transaction_id,status,at\n700,UNDELIVERED_SERVER_OUTAGE,2026-10-01T00:05:00Z\n500,DELIVERED,2026-10-01T00:01:00Z\n"

        fixture.notify("ONE_TIME_CHARGE", uuid: "p-buy", signed: t0, transaction: Self.pack("500", purchase: t0, signed: t0))
        fixture.link("p", "500")
        fixture.cost("p", at: t0 + d, "1.50", category: "api", credits: 1500)
        fixture.cost("p", at: t0 + 2 * d, "2.50", category: "api", credits: 2500)
        fixture.cost("p", at: t0 + 5 * d, "2.00", category: "api", credits: 2000)
        fixture.notify(
            "CONSUMPTION_REQUEST", uuid: "p-ask", signed: t0 + 3 * d,
            transaction: Self.pack("500", purchase: t0, signed: t0 + 3 * d),
            received: t0 + 3 * d + 60_000, reason: "UNSATISFIED_WITH_PURCHASE")
        fixture.notify(
            "REFUND_DECLINED", uuid: "p-no", signed: t0 + 4 * d, transaction: Self.pack("500", purchase: t0, signed: t0 + 4 * d))

        fixture.notify("ONE_TIME_CHARGE", uuid: "q-buy", signed: t0, transaction: Self.pack("600", purchase: t0, signed: t0))
        fixture.link("q", "600")
        fixture.cost("q", at: t0 + d, "1.00", category: "api", credits: 1000)
        fixture.notify(
            "CONSUMPTION_REQUEST", uuid: "q-ask", signed: t0 + 2 * d,
            transaction: Self.pack("600", purchase: t0, signed: t0 + 2 * d),
            reason: "UNINTENDED_PURCHASE")
        fixture.notify(
            "REFUND", uuid: "q-refund", signed: t0 + 3 * d,
            transaction: Self.pack(
                "600", purchase: t0, signed: t0 + 3 * d, extra: ["revocationDate": t0 + 3 * d, "revocationReason": 0]))
        fixture.cost("q", at: t0 + 4 * d, "0.10", category: "api", credits: 100)

        fixture.notify(
            "SUBSCRIBED", uuid: "s-buy", signed: t0,
            transaction: F.transaction(
                "800", product: "pro.monthly", type: "Auto-Renewable Subscription", purchase: t0, expires: t0 + 30 * d, signed: t0
            ))
        fixture.link("s", "800")
        fixture.cost("s", at: t0 + d, "0.50")
        fixture.notify(
            "CONSUMPTION_REQUEST", uuid: "s-ask", signed: t0 + 6 * d,
            transaction: F.transaction(
                "800", product: "pro.monthly", type: "Auto-Renewable Subscription", purchase: t0, expires: t0 + 30 * d,
                signed: t0 + 6 * d),
            reason: "OTHER")

        fixture.notify("ONE_TIME_CHARGE", uuid: "v-buy", signed: t0, transaction: Self.pack("700", purchase: t0, signed: t0))
        fixture.link("v", "700")
        fixture.notify(
            "CONSUMPTION_REQUEST", uuid: "v-ask", signed: t0 + 30 * d + 20 * h,
            transaction: Self.pack("700", purchase: t0, signed: t0 + 30 * d + 20 * h),
            reason: "FULFILLMENT_ISSUE")
        // Credits used by an account that bought none: classified by access like any row.
        fixture.cost("anon", at: t0 + d, "0.30", category: "api", credits: 30)
        return fixture
    }

    func requests(_ result: ReportResult) throws -> [String: [String: String]] {
        Dictionary(uniqueKeysWithValues: try result.rows("consumption_requests.csv").map { ($0["notification_uuid"] ?? "", $0) })
    }

    @Test func creditsFundRowsOldestFirstAndRefundedCreditsAreAfterRefund() throws {
        let result = try runReport(try month().write())
        let pack = try result.summary("credits.pack")
        // P 1.50 + 2.50 + 2.00 and Q 1.00 are paid through their packs; Q's 0.10 after its refund.
        #expect(pack["cost_paid"] == "7.000000")
        #expect(pack["cost_after_refund"] == "0.100000")
        #expect(try result.summary("")["cost_unlinked"] == "0.300000")
        let refund = try #require(try result.rows("refunds.csv").first { $0["transaction_id"] == "600" })
        #expect(refund["cost_purchaser"] == "1.000000")
        #expect(refund["cost_after_revocation"] == "0.100000")
        #expect(refund["sunk_cost"] == "1.100000")
        // The refunded pack's credits used a day later: a leak measured from the refund.
        let leak = try #require(try result.rows("leaks.csv").first { $0["account_id"] == "q" })
        #expect(leak["end_kind"] == "refund_full")
        #expect(leak["access_end"] == "2026-10-04T00:00:00.000Z")
        #expect(leak["notified_at"] == "2026-10-04T00:00:00.000Z")
        #expect(leak["cost_beyond_grace"] == "0.100000")
        #expect(result.outcome.conservation.holds)
    }

    /// Two rows of one account at the same time draw credits the cheaper first, whatever the
    /// file's order.
    ///
    /// p's pack 500 (5,000 credits, t0) is refunded on day 2, pack 510 bought an hour after 500. On day 3, 1.00 for 1,000 credits is listed before 0.50 for 5,000. The 0.50
    /// row draws first and empties 500 (after its refund: after_refund); the 1.00 row then draws
    /// on 510 (paid). The other way round both would have drawn on 500: 1.50 after_refund.
    @Test func rowsAtTheSameTimeDrawCreditsTheCheaperFirst() throws {
        var fixture = F()
        fixture.products += "credits.pack,Consumable,,5000\n"
        fixture.notify("ONE_TIME_CHARGE", uuid: "buy-500", signed: t0, transaction: Self.pack("500", purchase: t0, signed: t0))
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "buy-510", signed: t0 + h, transaction: Self.pack("510", purchase: t0 + h, signed: t0 + h))
        fixture.notify(
            "REFUND", uuid: "refund-500", signed: t0 + 2 * d,
            transaction: Self.pack(
                "500", purchase: t0, signed: t0 + 2 * d, extra: ["revocationDate": t0 + 2 * d, "revocationReason": 0]))
        fixture.link("p", "500")
        fixture.link("p", "510")
        fixture.cost("p", at: t0 + 3 * d, "1.00", category: "api", credits: 1000)
        fixture.cost("p", at: t0 + 3 * d, "0.50", category: "api", credits: 5000)
        let result = try runReport(try fixture.write())
        let pack = try result.summary("credits.pack")
        #expect(pack["cost_after_refund"] == "0.500000")
        #expect(pack["cost_paid"] == "1.000000")
        #expect(result.outcome.conservation.holds)
    }

    @Test func fourThousandOfFiveThousandCreditsIsEightyPercent() throws {
        let p = try #require(try requests(try runReport(try month().write()))["p-ask"])
        #expect(p["consumption_percentage"] == "80000")
        #expect(p["delivery_status"] == "DELIVERED")
        #expect(p["refund_preference"] == "DECLINE")
        #expect(p["basis"] == "UNSATISFIED_WITH_PURCHASE; 4000 of 5000 credits used, heavy use (at least 50.0%) -> DECLINE")
        #expect(p["customer_consented"] == "true")
        #expect(p["received_at"] == "2026-10-04T00:01:00.000Z")
        // Signed at midnight, received a minute later: Apple's 12 hours run from the signing.
        #expect(p["respond_by"] == "2026-10-04T12:00:00.000Z")
        #expect(p["outcome"] == "declined")
        #expect(p["outcome_at"] == "2026-10-05T00:00:00.000Z")
        #expect(p["delivered_cost"] == "6.000000")
        #expect(p["past_respond_by"] == "true")
    }

    @Test func unconsentedRequestIsAnsweredButNotSentAndItsRefundIsTheOutcome() throws {
        let result = try runReport(try month().write())
        let q = try #require(try requests(result)["q-ask"])
        #expect(q["customer_consented"] == "false")
        #expect(q["consumption_percentage"] == "20000")
        #expect(q["refund_preference"] == "GRANT_PRORATED")
        #expect(q["outcome"] == "granted")
        #expect(q["outcome_at"] == "2026-10-04T00:00:00.000Z")
        #expect(!(try result.text("consumption_responses.jsonl")).contains("\"600\""))
    }

    @Test func autoRenewableOmitsThePercentageAndBodiesUseApplesSpelling() throws {
        let result = try runReport(try month().write())
        let s = try #require(try requests(result)["s-ask"])
        #expect(s["consumption_percentage"] == "")
        #expect(s["refund_preference"] == "GRANT_PRORATED")
        #expect(s["outcome"] == "pending")
        let lines = try result.text("consumption_responses.jsonl").split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"{"transactionId":"500","body":{"customerConsented":true,"consumptionPercentage":80000,"deliveryStatus":"DELIVERED","refundPreference":"DECLINE","sampleContentProvided":false}}"#,
                #"{"transactionId":"800","body":{"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"GRANT_PRORATED","sampleContentProvided":false}}"#,
                #"{"transactionId":"700","body":{"customerConsented":true,"consumptionPercentage":0,"deliveryStatus":"UNDELIVERED_SERVER_OUTAGE","refundPreference":"GRANT_FULL","sampleContentProvided":false}}"#,
            ])
    }

    @Test func anUndeliveredPackIsGrantedAndALateRequestIsStillAnswerable() throws {
        let result = try runReport(try month().write())
        let v = try #require(try requests(result)["v-ask"])
        #expect(v["delivery_status"] == "UNDELIVERED_SERVER_OUTAGE")
        #expect(v["consumption_percentage"] == "0")
        #expect(v["refund_preference"] == "GRANT_FULL")
        // Received at 20:00 on Oct 31: it can still be answered until 08:00 on Nov 1.
        #expect(v["past_respond_by"] == "false")
        let all = try result.totals()
        #expect(all["consumption_requests"] == "4")
        #expect(all["consumption_granted"] == "1")
        #expect(all["consumption_declined"] == "1")
    }

    /// The rule table, one case per reason, with and without delivery.
    @Test(arguments: [
        ("UNINTENDED_PURCHASE", DeliveryStatus.delivered, Int64(0), RefundPreference.grantFull),
        ("UNINTENDED_PURCHASE", .delivered, 30_000, .grantProrated),
        ("UNINTENDED_PURCHASE", .delivered, 90_000, .decline),
        ("FULFILLMENT_ISSUE", .undeliveredServerOutage, 0, .grantFull),
        ("FULFILLMENT_ISSUE", .delivered, 70_000, .decline),
        ("UNSATISFIED_WITH_PURCHASE", .delivered, 80_000, .decline),
        ("UNSATISFIED_WITH_PURCHASE", .delivered, 10_000, .grantProrated),
        ("UNSATISFIED_WITH_PURCHASE", .undeliveredQualityIssue, 0, .grantFull),
        ("LEGAL", .delivered, 100_000, .grantFull),
        ("OTHER", .delivered, 0, .grantFull),
        ("OTHER", .delivered, 50_000, .decline),
    ])
    func preferenceFollowsReasonAndEvidence(reason: String, delivery: DeliveryStatus, used: Int64, expected: RefundPreference) {
        let (preference, basis) = ConsumptionAnswer.preference(
            reason: reason, delivery: delivery, used: used, usedText: "evidence", policy: ConsumptionPolicy())
        #expect(preference == expected)
        #expect(basis.hasSuffix("-> " + expected.rawValue))
    }

    @Test func theHeavyUseThresholdIsAnOption() {
        let strict = ConsumptionPolicy(heavyUse: 20_000)
        #expect(
            ConsumptionAnswer.preference(reason: "OTHER", delivery: .delivered, used: 25_000, usedText: "", policy: strict).0
                == .decline)
        #expect(
            ConsumptionAnswer.preference(
                reason: "OTHER", delivery: .delivered, used: 25_000, usedText: "", policy: ConsumptionPolicy()
            ).0 == .grantProrated)
    }
}
