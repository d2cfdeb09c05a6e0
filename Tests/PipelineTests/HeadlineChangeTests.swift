import Foundation
import Testing

@testable import Attribution
@testable import Report
@testable import Support
@testable import TestSupport

/// "How much, and up or down": every headline figure against the month before, worked out
/// from the same data.
@Suite("Headline against the month before")
struct HeadlineChangeTests {
    let september: Int64 = AppStoreFixture.october - 30 * AppStoreFixture.day
    let day = AppStoreFixture.day

    /// Two lifetime purchases on September 1, at 9.99 USD each.
    ///
    /// q's is refunded September 15, p's October 20. Cost: q 0.50 on September 5 and 0.25
    /// after its refund (September 20); p 2.00 on September 10, 3.00 on October 10 and 1.00
    /// after its refund (October 25).
    func twoMonths() throws -> String {
        var fixture = AppStoreFixture()
        let t0 = september
        for (id, account, refunded) in [("100", "p", AppStoreFixture.october + 19 * day), ("200", "q", t0 + 14 * day)] {
            fixture.notify(
                "ONE_TIME_CHARGE", uuid: "buy-\(id)", signed: t0,
                transaction: AppStoreFixture.transaction(id, purchase: t0, signed: t0))
            fixture.notify(
                "REFUND", uuid: "refund-\(id)", signed: refunded,
                transaction: AppStoreFixture.transaction(
                    id, purchase: t0, signed: refunded, extra: ["revocationDate": refunded, "revocationReason": 0]))
            fixture.link(account, id)
        }
        fixture.cost("q", at: t0 + 4 * day, "0.50")
        fixture.cost("q", at: t0 + 19 * day, "0.25")
        fixture.cost("p", at: t0 + 9 * day, "2.00")
        fixture.cost("p", at: AppStoreFixture.october + 9 * day, "3.00")
        fixture.cost("p", at: AppStoreFixture.october + 24 * day, "1.00")
        return try fixture.write()
    }

    @Test func theMonthBeforeIsWorkedOutFromTheSameData() throws {
        let result = try runReport(try twoMonths())
        let figures = result.outcome.figures
        let previous = try #require(figures.previousMonth)
        #expect(previous.month.description == "2026-09")
        #expect(previous.costServed == (try Money.parse("2.75")))
        #expect(previous.refundedAmount == (try Money.parse("9.99")))
        #expect(previous.refundSunkCost == (try Money.parse("0.75")), "q's 0.50 while valid and 0.25 after")
        #expect(previous.leaked == (try Money.parse("0.25")))
        #expect(previous.recurringLossRunRate == .zero && previous.billingGrace == .zero)

        let changes = try #require(try figures.headlineChanges())
        #expect(changes.costServed.delta == (try Money.parse("1.25")) && changes.costServed.tenthsOfPercent == 455)
        #expect(!changes.costServed.isWorse, "more cost served is not bad news by itself")
        #expect(changes.refunded.direction == .same)
        #expect(changes.refundSunkCost.delta == (try Money.parse("5.25")) && changes.refundSunkCost.tenthsOfPercent == 7000)
        #expect(changes.leaked.isWorse && changes.leaked.tenthsOfPercent == 3000)

        let page = try result.text("report.html")
        #expect(page.contains("<div class=\"change worse\">▲ +0.75 USD (+300.0%) vs September 2026</div>"))
        #expect(page.contains("<div class=\"change\">= no change vs September 2026</div>"))
        #expect(page.contains("<div class=\"change\">▲ +1.25 USD (+45.5%) vs September 2026</div>"))
    }

    @Test func theConsoleSaysTheSameOnEachLine() throws {
        let data = try twoMonths()
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains("  cost served          4.000000 USD; ▲ +1.250000 USD (+45.5%) vs September 2026"),
            "\(run.stdout)")
        #expect(run.stdout.contains("  refunded             9.990000 USD, 1 refund; = no change vs September 2026"))
        #expect(run.stdout.contains("  leaked               1.000000 USD"))
        #expect(run.stdout.contains("; ▲ +0.750000 USD (+300.0%) vs September 2026"))
        // The first month of the data has nothing before it to compare with.
        let first = try runTool(["report", "--data", data, "--month", "2026-09", "--out", out])
        #expect(first.stdout.contains("  cost served          2.750000 USD; no earlier month in the data"), "\(first.stdout)")
        let page = try TestFiles.read(out + "/2026-09/report.html")
        #expect(page.contains("no earlier month in the data to compare with"))
    }
}
