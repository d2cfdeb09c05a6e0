import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Pipeline
@testable import Report
@testable import Support
@testable import TestSupport

/// docs/domain.md rule 13 in hand-computed months.
///
/// A monthly subscription bought Sep 10 expires
/// Oct 10; its renewal fails and Apple keeps access while it retries. Amounts in USD.
@Suite("Billing grace")
struct BillingGraceTests {
    typealias F = AppStoreFixture
    let t0 = AppStoreFixture.october
    let h = AppStoreFixture.hour
    let d = AppStoreFixture.day
    var sep10: Int64 { t0 - 21 * d }
    var oct10: Int64 { t0 + 9 * d }

    func monthly(_ id: String, original: String = "500", ownership: String = "PURCHASED", purchase: Int64, expires: Int64)
        -> [String: Any]
    {
        F.transaction(
            id, original: original, product: "pro.monthly", ownership: ownership, type: "Auto-Renewable Subscription",
            purchase: purchase, expires: expires, signed: purchase)
    }

    /// The subscription of `account`, its failed renewal on Oct 10 and a grace until `graceEnd`.
    func failedRenewal(_ fixture: inout F, account: String = "s", id: String = "500", graceEnd: Int64, member: String? = nil) {
        fixture.notify(
            "SUBSCRIBED", uuid: "buy-\(id)", signed: sep10,
            transaction: monthly(id, original: id, purchase: sep10, expires: oct10))
        fixture.notify(
            "DID_FAIL_TO_RENEW", uuid: "fail-\(id)", signed: oct10 + 60_000,
            transaction: monthly(id, original: id, purchase: sep10, expires: oct10), subtype: "GRACE_PERIOD",
            renewal: [
                "originalTransactionId": id, "productId": "pro.monthly", "autoRenewStatus": 1, "isInBillingRetryPeriod": true,
                "gracePeriodExpiresDate": graceEnd, "signedDate": oct10 + 60_000, "environment": "Production",
            ])
        fixture.link(account, id)
    }

    @Test func graceThatRecoversIsPaidByTheRenewal() throws {
        var fixture = F()
        failedRenewal(&fixture, graceEnd: t0 + 25 * d)
        let recovery = t0 + 14 * d
        fixture.notify(
            "DID_RENEW", uuid: "recover", signed: recovery,
            transaction: monthly("501", original: "500", purchase: recovery, expires: t0 + 40 * d),
            subtype: "BILLING_RECOVERY")
        fixture.cost("s", at: t0 + 11 * d, "1.00")  // in grace, before the recovery: paid by the renewal
        fixture.cost("s", at: t0 + 19 * d, "2.00")  // after the recovery: the renewal grants
        fixture.cost("s", at: t0 + 5 * d, "0.50")  // before Oct 10: the first period
        let result = try runReport(try fixture.write())
        let row = try result.summary("pro.monthly")
        #expect(row["cost_paid"] == "3.500000")
        #expect(row["cost_billing_grace"] == "0.000000")
        #expect(try result.rows("subscription_loss.csv").isEmpty)
    }

    @Test func graceThatExpiresIsBillingGraceThenAfterExpiry() throws {
        var fixture = F()
        failedRenewal(&fixture, graceEnd: t0 + 25 * d)
        fixture.notify(
            "GRACE_PERIOD_EXPIRED", uuid: "grace-over", signed: t0 + 25 * d,
            transaction: monthly("500", original: "500", purchase: sep10, expires: oct10))
        fixture.cost("s", at: t0 + 11 * d, "1.00")  // in grace, never paid
        fixture.cost("s", at: t0 + 24 * d, "0.25")  // still in grace
        fixture.cost("s", at: t0 + 27 * d, "2.00")  // after the grace: lapsed
        let result = try runReport(try fixture.write())
        let row = try result.summary("pro.monthly")
        #expect(row["cost_billing_grace"] == "1.250000")
        #expect(row["cost_after_expiry"] == "2.000000")
        #expect(row["cost_paid"] == "0.000000")
        let loss = try #require(try result.rows("subscription_loss.csv").first)
        #expect(loss["billing_grace_cost"] == "1.250000")
        #expect(loss["leaked_cost"] == "0.000000")
        #expect(loss["access_end"] == Timestamp(milliseconds: t0 + 25 * d).description)
        let byDay = try result.rows("cost_by_day.csv").filter { $0["class"] == "billing_grace" }
        #expect(byDay.map { $0["cost"] ?? "" } == ["1.000000", "0.250000"])
    }

    /// The grace still runs at the as-of time (Nov 1): the cost so far is billing grace.
    @Test func graceRunningAtTheAsOfTime() throws {
        var fixture = F()
        failedRenewal(&fixture, graceEnd: t0 + 35 * d)
        fixture.cost("s", at: t0 + 20 * d, "1.50")
        let data = try fixture.write()
        let result = try runReport(data)
        #expect(try result.summary("pro.monthly")["cost_billing_grace"] == "1.500000")
        let explain = try runTool(["explain", "--data", data, "--account", "s", "--as-of", "2026-11-01"])
        #expect(explain.status == 0, "\(explain.stderr)")
        #expect(
            explain.stdout.contains(
                "billing grace 2026-10-10T00:00:00.000Z -> 2026-11-05T00:00:00.000Z: still running at the as-of time"))
        #expect(explain.stdout.contains("billing_grace"))
    }

    /// A member sharing the subscription has a grace of their own: billing grace too, tied to
    /// their FAMILY_SHARED transaction, and paid by their renewal when billing recovers.
    @Test func aFamilyMemberInGrace() throws {
        var fixture = F()
        failedRenewal(&fixture, graceEnd: t0 + 25 * d)
        fixture.notify(
            "SUBSCRIBED", uuid: "share", signed: sep10 + h,
            transaction: monthly("600", original: "600", ownership: "FAMILY_SHARED", purchase: sep10 + h, expires: oct10))
        fixture.notify(
            "DID_FAIL_TO_RENEW", uuid: "member-fail", signed: oct10 + 60_000,
            transaction: monthly("600", original: "600", ownership: "FAMILY_SHARED", purchase: sep10 + h, expires: oct10),
            subtype: "GRACE_PERIOD",
            renewal: ["originalTransactionId": "600", "gracePeriodExpiresDate": t0 + 25 * d, "signedDate": oct10 + 60_000])
        fixture.link("m", "600")
        fixture.cost("m", at: t0 + 12 * d, "0.75")
        let result = try runReport(try fixture.write())
        #expect(try result.summary("pro.monthly")["cost_billing_grace"] == "0.750000")
        let loss = try result.rows("subscription_loss.csv")
        #expect(loss.map { $0["account_id"] ?? "" } == ["m"])
        #expect(loss.first?["ownership"] == "family_shared")
    }

    /// A grace from Sep 25 to Oct 8, never paid: only its October cost is in the window.
    @Test func aGraceAcrossTheWindowsStart() throws {
        var fixture = F()
        let expires = t0 - 6 * d
        fixture.notify(
            "SUBSCRIBED", uuid: "buy", signed: expires - 30 * d,
            transaction: monthly("700", original: "700", purchase: expires - 30 * d, expires: expires))
        fixture.notify(
            "DID_FAIL_TO_RENEW", uuid: "fail", signed: expires + 60_000,
            transaction: monthly("700", original: "700", purchase: expires - 30 * d, expires: expires), subtype: "GRACE_PERIOD",
            renewal: ["originalTransactionId": "700", "gracePeriodExpiresDate": t0 + 7 * d, "signedDate": expires + 60_000])
        fixture.link("s", "700")
        fixture.cost("s", at: t0 - 3 * d, "4.00")  // September: history only
        fixture.cost("s", at: t0 + 2 * d, "1.00")  // October, in grace
        fixture.cost("s", at: t0 + 9 * d, "0.10")  // after the grace
        let result = try runReport(try fixture.write())
        let row = try result.summary("pro.monthly")
        #expect(row["cost_billing_grace"] == "1.000000")
        #expect(row["cost_after_expiry"] == "0.100000")
        #expect(row["cost_total"] == "1.100000")
    }
}
