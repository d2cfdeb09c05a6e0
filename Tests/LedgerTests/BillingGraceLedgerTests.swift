import Testing

@testable import Ingest
@testable import Ledger
@testable import Support
@testable import TestSupport

/// docs/domain.md rule 13 in the ledger: a renewal that failed while Apple kept access is a
/// billing grace of the lapsed transaction, from its expiry until the grace ends, unless a
/// renewal paid for it; worked out by hand on a monthly subscription bought Sep 10 (expiring
/// Oct 10), its renewal failing on Oct 10.
@Suite("Billing grace in the ledger")
struct BillingGraceLedgerTests {
    typealias F = AppStoreFixture
    let t0 = AppStoreFixture.october
    let d = AppStoreFixture.day
    let minute: Int64 = 60_000
    var sep10: Int64 { t0 - 21 * d }
    var oct10: Int64 { t0 + 9 * d }

    func monthly(_ id: String, original: String = "500", purchase: Int64, expires: Int64, signed: Int64) -> [String: Any] {
        F.transaction(
            id, original: original, product: "pro.monthly", type: "Auto-Renewable Subscription", purchase: purchase,
            expires: expires, signed: signed)
    }

    /// The subscription, its failed renewal on Oct 10 and a grace until `graceEnd`.
    func failedRenewal(graceEnd: Int64) -> F {
        var fixture = F()
        fixture.notify(
            "SUBSCRIBED", uuid: "buy", signed: sep10, transaction: monthly("500", purchase: sep10, expires: oct10, signed: sep10))
        fixture.notify(
            "DID_FAIL_TO_RENEW", uuid: "fail", signed: oct10 + minute,
            transaction: monthly("500", purchase: sep10, expires: oct10, signed: oct10 + minute), subtype: "GRACE_PERIOD",
            renewal: [
                "originalTransactionId": "500", "productId": "pro.monthly", "autoRenewStatus": 1, "isInBillingRetryPeriod": true,
                "gracePeriodExpiresDate": graceEnd, "signedDate": oct10 + minute, "environment": "Production",
            ])
        fixture.link("acct-s", "500")
        return fixture
    }

    @Test func aGraceThatExpiredIsBillingGraceThenTheExpiry() throws {
        var fixture = failedRenewal(graceEnd: t0 + 25 * d)
        fixture.notify(
            "GRACE_PERIOD_EXPIRED", uuid: "over", signed: t0 + 25 * d,
            transaction: monthly("500", purchase: sep10, expires: oct10, signed: t0 + 25 * d))
        let ledger = try buildLedger(try fixture.write()).ledger
        let subscription = ledger.index("500")
        #expect(ledger.access("acct-s", at: oct10 - 1) == .entitled(transaction: subscription))
        #expect(ledger.access("acct-s", at: oct10) == .billingGrace(transaction: subscription))
        #expect(ledger.access("acct-s", at: t0 + 25 * d - 1) == .billingGrace(transaction: subscription))
        #expect(ledger.access("acct-s", at: t0 + 25 * d) == .ended(transaction: subscription))
        // The access ended when the grace did: that is when the subscription lapsed.
        #expect(ledger.transaction("500")?.end?.kind == .expiry)
        #expect(ledger.transaction("500")?.end?.at == Timestamp(milliseconds: t0 + 25 * d))
    }

    @Test func aRecoveryPaysForTheGrace() throws {
        var fixture = failedRenewal(graceEnd: t0 + 25 * d)
        let recovery = t0 + 14 * d
        fixture.notify(
            "DID_RENEW", uuid: "recover", signed: recovery,
            transaction: monthly("501", purchase: recovery, expires: t0 + 44 * d, signed: recovery), subtype: "BILLING_RECOVERY")
        let ledger = try buildLedger(try fixture.write()).ledger
        // Billing recovered: the grace was access the renewal paid for (rule 13: "those rows are
        // paid by it"), so the renewal grants it, not billing grace.
        #expect(ledger.transaction("500")?.grace?.recoveredBy == ledger.index("501"))
        #expect(ledger.access("acct-s", at: t0 + 11 * d) == .entitled(transaction: ledger.index("501")))
        #expect(ledger.access("acct-s", at: t0 + 20 * d) == .entitled(transaction: ledger.index("501")))
        #expect(ledger.access("acct-s", at: t0 + 45 * d) == .ended(transaction: ledger.index("501")))
    }

    @Test func aGraceStillRunningAtTheAsOfTime() throws {
        let fixture = failedRenewal(graceEnd: t0 + 35 * d)
        let ledger = try buildLedger(try fixture.write(), asOf: t0 + 31 * d).ledger
        let subscription = ledger.index("500")
        #expect(ledger.access("acct-s", at: t0 + 30 * d) == .billingGrace(transaction: subscription))
        let grace = try #require(ledger.transaction("500")?.grace)
        #expect(
            grace
                == BillingGrace(
                    start: Timestamp(milliseconds: oct10), end: Timestamp(milliseconds: t0 + 35 * d), recoveredBy: nil))
    }
}
