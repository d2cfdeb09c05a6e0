import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Pipeline
@testable import Report
@testable import Support
@testable import Synthetic
@testable import TestSupport

/// Small hand-built months with every figure worked out by hand (amounts in USD).
@Suite("Monthly report scenarios")
struct ReportScenarioTests {
    typealias F = AppStoreFixture
    let t0 = AppStoreFixture.october
    let h = AppStoreFixture.hour
    let d = AppStoreFixture.day
    let minute: Int64 = 60_000

    /// P buys pro.lifetime on Oct 1; members M1 and M2 get it an hour later.
    ///
    /// P is refunded on Oct 11 (R); the server cut P off but M1 kept using it. U buys pro.yearly on
    /// Oct 25 and used the app before; an anonymous account used it too.
    func familyRefundMonth() -> F {
        var fixture = F.familyRefund(purchaser: "p", members: ["m1", "m2"])
        let refundAt = t0 + 10 * d
        fixture.notify(
            "SUBSCRIBED", uuid: "u-buy", signed: t0 + 24 * d,
            transaction: F.transaction(
                "300", product: "pro.yearly", type: "Auto-Renewable Subscription", purchase: t0 + 24 * d,
                expires: t0 + 389 * d, signed: t0 + 24 * d))
        fixture.link("u", "300")
        fixture.cost("p", at: t0 + 2 * d + 10 * h, "4.00")
        fixture.cost("m1", at: t0 + 4 * d + 12 * h, "2.00")
        fixture.cost("m2", at: t0 + 30 * minute, "0.30")
        fixture.cost("m1", at: refundAt + 3 * minute + 30_000, "0.50")
        fixture.cost("m1", at: refundAt + 30 * minute, "0.25")
        fixture.cost("m1", at: refundAt + 2 * h, "1.00", category: "api")
        fixture.cost("m1", at: t0 + 19 * d, "3.00", category: "api")
        fixture.cost("u", at: t0 + 14 * d, "0.40")
        fixture.cost("u", at: t0 + 24 * d - h, "0.20")
        fixture.cost("anon", at: t0 + 6 * d, "1.00", category: "storage")
        return fixture
    }

    @Test func familyRefundWithAMemberWhoKeptUsingIt() throws {
        let result = try runReport(try familyRefundMonth().write())
        let lifetime = try result.summary("pro.lifetime")
        #expect(lifetime["cost_total"] == "11.050000")
        #expect(lifetime["cost_paid"] == "4.000000")
        #expect(lifetime["cost_family_shared"] == "2.000000")
        #expect(lifetime["cost_premature"] == "0.300000")
        #expect(lifetime["cost_after_refund"] == "4.750000")
        #expect(lifetime["leaked_cost"] == "4.750000")
        #expect(lifetime["leaked_cost_beyond_grace"] == "4.000000")
        #expect(lifetime["leaked_accounts"] == "1")
        #expect(lifetime["refunds"] == "1")
        #expect(lifetime["family_refunds"] == "2")
        #expect(lifetime["refunded_amount"] == "9.990000")
        // Sunk: 4.00 served to P + 2.00 to M1 while entitled + 4.75 after the refund.
        #expect(lifetime["refund_sunk_cost"] == "10.750000")

        let refund = try #require(try result.rows("refunds.csv").first)
        #expect(refund["transaction_id"] == "100")
        #expect(refund["account_id"] == "p")
        #expect(refund["revocation_kind"] == "refund_full")
        #expect(refund["revocation_reason"] == "app_issue")
        #expect(refund["family_members"] == "2")
        #expect(refund["family_link_method"] == "revocation_match")
        #expect(refund["cost_purchaser"] == "4.000000")
        #expect(refund["cost_family"] == "2.000000")
        #expect(refund["cost_after_revocation"] == "4.750000")
        #expect(refund["sunk_cost"] == "10.750000")

        let leaks = try result.rows("leaks.csv")
        #expect(leaks.count == 1)
        let leak = try #require(leaks.first)
        #expect(leak["account_id"] == "m1")
        #expect(leak["end_kind"] == "family_refund")
        #expect(leak["access_end"] == "2026-10-11T00:03:00.000Z")
        #expect(leak["notified_at"] == "2026-10-11T00:04:00.000Z")
        #expect(leak["cost_before_notice"] == "0.500000")
        #expect(leak["cost_within_grace"] == "0.250000")
        #expect(leak["cost_beyond_grace"] == "4.000000")
        #expect(leak["first_cost_at"] == "2026-10-11T00:03:30.000Z")
        #expect(leak["last_cost_at"] == "2026-10-20T00:00:00.000Z")
    }

    @Test func freeUseUnlinkedAndPremature() throws {
        let result = try runReport(try familyRefundMonth().write())
        let none = try result.summary("")
        #expect(none["cost_unentitled"] == "0.400000")
        #expect(none["cost_unlinked"] == "1.000000")
        #expect(none["cost_total"] == "1.400000")
        #expect(try result.summary("pro.yearly")["cost_premature"] == "0.200000")
        let all = try result.totals()
        #expect(all["cost_total"] == "12.650000")
        #expect(all["leaked_accounts"] == "1")
        #expect(try result.rows("summary.csv").map { $0["product_id"] } == ["", "pro.lifetime", "pro.yearly"])
        // cost_by_day: the anonymous storage row on Oct 7.
        let storage = try result.rows("cost_by_day.csv").filter { $0["category"] == "storage" }
        #expect(
            storage == [
                [
                    "day": "2026-10-07", "category": "storage", "class": "unlinked", "currency": "USD", "rows": "1",
                    "cost": "1.000000",
                ]
            ])
        #expect(result.outcome.conservation.holds)
    }

    @Test func familyExitWithoutADateLeaksForThreePeriods() throws {
        var fixture = F()
        let august = t0 - 61 * d
        let sub = "Auto-Renewable Subscription"
        fixture.products += "pro.monthly,Auto-Renewable Subscription,P1M,\n"
        fixture.notify(
            "SUBSCRIBED", uuid: "buy", signed: august,
            transaction: F.transaction(
                "100", product: "pro.monthly", type: sub, purchase: august, expires: t0 - 30 * d, signed: august))
        let member = F.transaction(
            "201", product: "pro.monthly", ownership: "FAMILY_SHARED", type: sub, purchase: august + h,
            expires: t0 - 30 * d, signed: august + h)
        fixture.notify("SUBSCRIBED", uuid: "share", signed: august + h, transaction: member)
        var leaving = member
        leaving["signedDate"] = t0 - 52 * d
        fixture.notify("REVOKE", uuid: "leave", signed: t0 - 52 * d, transaction: leaving)
        fixture.link("p", "100")
        fixture.link("m", "201")
        // Periods of 30 days from Aug 10: [Aug 10, Sep 9), [Sep 9, Oct 9), [Oct 9, Nov 8).
        fixture.cost("m", at: t0 - 42 * d, "1.00")
        fixture.cost("m", at: t0 - 16 * d, "2.00")
        fixture.cost("m", at: t0 + 24 * d + 12 * h, "3.00")
        fixture.cost("m", at: t0 + 27 * d, "0.50")
        let result = try runReport(try fixture.write())
        let loss = try #require(try result.rows("subscription_loss.csv").first)
        #expect(loss["account_id"] == "m")
        #expect(loss["original_transaction_id"] == "201")
        #expect(loss["ownership"] == "family_shared")
        #expect(loss["period"] == "P1M")
        #expect(loss["access_end"] == "2026-08-10T00:00:00.000Z")
        #expect(loss["leaked_periods"] == "3")
        #expect(loss["leaked_cost"] == "6.500000")
        #expect(loss["cost_per_period"] == "2.166667")
        #expect(loss["still_leaking"] == "true")
        // The last 30 days before Nov 1: Oct 25 and Oct 28.
        #expect(loss["run_rate_30d"] == "3.500000")
        let monthly = try result.summary("pro.monthly")
        #expect(monthly["cost_after_family_exit"] == "3.500000")
        #expect(monthly["recurring_loss_run_rate"] == "3.500000")
        #expect(monthly["family_exits"] == "0")
        #expect(try result.totals()["recurring_loss_run_rate"] == "3.500000")
        let leak = try #require(try result.rows("leaks.csv").first)
        #expect(leak["end_kind"] == "family_exit")
        #expect(leak["cost_beyond_grace"] == "3.500000")
    }

    @Test func aMemberWithASecondValidTransactionDoesNotLeak() throws {
        var fixture = familyRefundMonth()
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "own", signed: t0 - 7 * d,
            transaction: F.transaction("150", purchase: t0 - 7 * d, signed: t0 - 7 * d))
        fixture.link("m1", "150")
        let result = try runReport(try fixture.write())
        let lifetime = try result.summary("pro.lifetime")
        // M1's rows are all paid through its own purchase now: 2.00 + 4.75 more paid, no leak.
        #expect(lifetime["cost_paid"] == "10.750000")
        #expect(lifetime["cost_family_shared"] == "0.000000")
        #expect(lifetime["cost_after_refund"] == "0.000000")
        #expect(try result.rows("leaks.csv").isEmpty)
        #expect(try result.rows("refunds.csv").first?["sunk_cost"] == "4.000000")
    }

    @Test func aReversedRefundIsPaidAccessAndCountedAsAReversal() throws {
        var fixture = F.reversedRefund(purchaser: "p")
        fixture.cost("p", at: t0 + 3 * d, "1.25")
        fixture.cost("p", at: t0 + 8 * d, "0.75")
        let result = try runReport(try fixture.write())
        let lifetime = try result.summary("pro.lifetime")
        #expect(lifetime["cost_paid"] == "2.000000")
        #expect(lifetime["refunds"] == "0")
        #expect(lifetime["refund_reversals"] == "1")
        #expect(try result.rows("refunds.csv").isEmpty)
    }

    @Test func aProratedRefundPaysBackItsShare() throws {
        var fixture = F()
        fixture.notify(
            "REFUND", uuid: "refund", signed: t0 + 2 * d,
            transaction: F.transaction(
                "100", purchase: t0, signed: t0 + 2 * d,
                extra: [
                    "revocationDate": t0 + 2 * d, "revocationReason": 0, "revocationType": "REFUND_PRORATED",
                    "revocationPercentage": 25000,
                ]))
        fixture.link("p", "100")
        fixture.cost("p", at: t0 + d, "1.00")
        let result = try runReport(try fixture.write())
        let refund = try #require(try result.rows("refunds.csv").first)
        #expect(refund["revocation_kind"] == "refund_prorated")
        #expect(refund["revocation_percentage"] == "25000")
        #expect(refund["price"] == "9.990000")
        // 9.99 x 25000 / 100000 = 2.4975.
        #expect(refund["refunded_amount"] == "2.497500")
        #expect(refund["sunk_cost"] == "1.000000")
        let all = try result.totals()
        #expect(all["refunds_prorated"] == "1")
        #expect(all["refunded_amount"] == "2.497500")
    }

    @Test func costAfterExpiryIsLapsedAccessNotALeak() throws {
        var fixture = F()
        let september = t0 - 30 * d
        fixture.notify(
            "SUBSCRIBED", uuid: "buy", signed: september,
            transaction: F.transaction(
                "100", product: "pro.monthly", type: "Auto-Renewable Subscription", purchase: september, expires: t0,
                signed: september))
        fixture.link("e", "100")
        fixture.cost("e", at: t0 + 2 * d, "0.60")
        let result = try runReport(try fixture.write())
        let monthly = try result.summary("pro.monthly")
        #expect(monthly["cost_after_expiry"] == "0.600000")
        #expect(monthly["leaked_cost"] == "0.000000")
        let leak = try #require(try result.rows("leaks.csv").first)
        #expect(leak["end_kind"] == "expiry")
        #expect(leak["notified_at"] == "2026-10-01T00:00:00.000Z")
        #expect(leak["cost_beyond_grace"] == "0.600000")
        #expect(try result.rows("subscription_loss.csv").isEmpty)
    }

    @Test func aNotificationSignedAfterTheAsOfTimeDoesNotChangeAClosedMonth() throws {
        var fixture = F()
        fixture.notify("ONE_TIME_CHARGE", uuid: "buy", signed: t0, transaction: F.transaction("100", purchase: t0, signed: t0))
        fixture.link("p", "100")
        fixture.cost("p", at: t0 + 30 * d + 23 * h + 30 * minute, "1.00")
        let before = try runReport(try fixture.write("closed"))
        // Refunded at 23:00 on Oct 31, but Apple signed the REFUND at 01:00 on Nov 1.
        let late = t0 + 31 * d + h
        fixture.notify(
            "REFUND", uuid: "late", signed: late,
            transaction: F.transaction(
                "100", purchase: t0, signed: late, extra: ["revocationDate": t0 + 30 * d + 23 * h, "revocationReason": 0]))
        let closed = try runReport(try fixture.write("with-late"))
        #expect(try closed.text("summary.csv") == before.text("summary.csv"))
        #expect(try closed.text("leaks.csv") == before.text("leaks.csv"))
        #expect(try closed.totals()["cost_paid"] == "1.000000")
        // Re-run as of Nov 2: the refund is known and the row is after_refund.
        let reopened = try runReport(try fixture.write("reopened"), asOf: t0 + 32 * d)
        #expect(try reopened.totals()["cost_after_refund"] == "1.000000")
        #expect(try reopened.totals()["refunds"] == "1")
    }

    @Test func duplicatesAndSandboxChangeNothing() throws {
        let plain = try runReport(try familyRefundMonth().write("plain"))
        var noisy = familyRefundMonth()
        noisy.notificationLines.append(noisy.notificationLines[0])
        noisy.notificationLines.append(noisy.notificationLines[5])
        var test = F.transaction("100", purchase: t0, signed: t0 + 3 * d, extra: ["revocationDate": t0 + 3 * d])
        test["environment"] = "Sandbox"
        noisy.notify("REFUND", uuid: "sandbox", signed: t0 + 3 * d, transaction: test, environment: "Sandbox")
        let result = try runReport(try noisy.write("noisy"))
        // Every file the report writes: a copy, a retry and another environment's data count for nothing.
        for file in ReportFiles.csvNames {
            #expect(try result.text(file) == plain.text(file), "\(file) changed")
        }
    }

    @Test func foreignCurrencyIsConvertedAtTheRateOfTheDay() throws {
        var fixture = familyRefundMonth()
        fixture.rates = "date,currency,rate\n2026-09-01,EUR,1.08\n2026-10-05,EUR,1.10\n2026-10-20,EUR,1.20\n"
        fixture.cost("anon", at: t0 + 5 * d + 6 * h, "10.00", currency: "EUR")
        let result = try runReport(try fixture.write())
        // 10.00 EUR x 1.10 on Oct 6 = 11.00 USD, on top of the 1.00 USD unlinked.
        #expect(try result.summary("")["cost_unlinked"] == "12.000000")
        let conservation = result.outcome.conservation
        #expect(conservation.byCurrency.map(\.currency.description) == ["EUR", "USD"])
        #expect(conservation.byCurrency.first?.classes == Money(nanos: 10_000_000_000))
    }

    @Test func aMissingRateStopsTheRunAndSaysWhatToAdd() throws {
        var fixture = familyRefundMonth()
        fixture.rates = "date,currency,rate\n2026-10-05,EUR,1.10\n"
        fixture.cost("anon", at: t0 + 5 * d, "10.00", currency: "GBP")
        guard case .failed(let failure) = try reportOutcome(try fixture.write()) else {
            Issue.record("a missing rate must stop the run")
            return
        }
        // The row that needs the rate, what is missing, what to add, and that nothing changed.
        #expect(failure.file?.hasSuffix("/costs/costs.csv") == true && failure.line > 1, "\(failure)")
        #expect(failure.description.contains("no exchange rate for GBP on or before 2026-10-06"))
        #expect(failure.description.contains("add a row '2026-10-06,GBP,RATE' to fx.csv"))
        #expect(failure.description.contains("is unchanged"))
    }
}

@Suite("Report output folder")
struct ReportFolderTests {
    typealias F = AppStoreFixture

    /// A re-run that fails never destroys a good report: its rejects go beside the folder.
    @Test func tooManyRejectsLeaveThePreviousReportAsItWas() throws {
        var fixture = F()
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "buy", signed: F.october,
            transaction: F.transaction("100", purchase: F.october, signed: F.october))
        fixture.link("p", "100")
        fixture.cost("p", at: F.october + F.day, "1.00")
        let root = try fixture.write()
        let out = try TestFiles.temporaryDirectory("out")
        let window = try #require(ReportWindow(month: "2026-10"))
        let good = try #require(ReportRun.execute(try reportOptions(data: root, out: out, window: window)).written)
        let before = try FileSystem.list(good.folder).map { ($0.name, try TestFiles.read(good.folder + "/" + $0.name)) }
        #expect(before.count == ReportFiles.csvNames.count + 3)
        // The same month again, now with a bad cost row: the previous report stays byte for byte.
        try TestFiles.write(fixture.costs + "yesterday,p,compute,1.00,USD,,\n", to: root + "/costs/costs.csv")
        let bad = ReportRun.execute(try reportOptions(data: root, out: out, window: window))
        guard case .refused(let refused) = bad else {
            Issue.record("more rejects than --max-rejects must refuse the report")
            return
        }
        #expect(refused.verdict.consequence.contains(out + "/2026-10.rejects.csv") && refused.reading.rejects.rows == 1)
        let after = try FileSystem.list(good.folder).map { ($0.name, try TestFiles.read(good.folder + "/" + $0.name)) }
        #expect(after.map(\.0) == before.map(\.0) && after.map(\.1) == before.map(\.1))
        #expect(try TestFiles.read(out + "/2026-10.rejects.csv").contains("costs/costs.csv,3,timestamp,yesterday,"))
        // Within --max-rejects the report is written, the reject listed in it, and the stale file gone.
        var tolerant = try reportOptions(data: root, out: out, window: window)
        tolerant.maxRejects = 1
        #expect(ReportRun.execute(tolerant).written != nil)
        #expect(try TestFiles.read(out + "/2026-10/rejects.csv").contains("costs/costs.csv,3,timestamp,yesterday,"))
        #expect(try FileSystem.list(out).map(\.name) == ["2026-10"])
    }
}
