import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Support
@testable import TestSupport

/// Every figure of `ReportFigures`, on one family refund and one refunded subscription, with
/// the values worked out by hand from docs/domain.md (grace 1 hour, premature window 2 hours).
///
/// October 2026 (t0 = October 1, 00:00 UTC). acct-p buys pro.lifetime (transaction 100, 9.99
/// USD) at t0; acct-m1 and acct-m2 get it through Family Sharing at t0 + 1h (201, 202). 100 is
/// refunded at t0 + 10d (REFUND received 2 s later); the members' REVOKEs are dated 3 minutes
/// after it (received 4 minutes after). Cost rows:
///
/// | account | time | cost | class | tied to |
/// | --- | --- | --- | --- | --- |
/// | anon | t0 - 5d (September 26) | 0.25 | unlinked, before the window | |
/// | acct-p | t0 + 5d | 2.00 | paid | 100 |
/// | acct-m1 | t0 + 5d | 3.00 | family_shared | 201 |
/// | anon | t0 + 5d | 1.00 | unlinked | |
/// | acct-p | t0 + 10d + 30 min | 1.00 | after_refund, within the hour's grace | 100 |
/// | acct-p | t0 + 10d + 3h | 4.00 | after_refund, beyond grace | 100 |
/// | acct-m1 | t0 + 12d | 0.50 | after_refund (a family refund), beyond grace | 201 |
@Suite("Figures, worked out by hand")
struct FigureTests {
    typealias F = AppStoreFixture
    let t0 = F.october
    let h = F.hour
    let d = F.day
    let minute: Int64 = 60_000

    /// An amount written as the files write it (a typo is a value no figure has).
    func usd(_ text: String) -> Money { (try? Money.parse(text)) ?? Money(nanos: .min) }

    var familyMonth: AppStoreFixture { F.familyMonth }

    @Test func theRefundCostsWhatItsPurchaseAndItsFamilyCostAndLeaked() throws {
        let figures = try reportFigures(familyMonth)
        let refund = try #require(figures.refunds.first)
        #expect(figures.refunds.count == 1)
        #expect(refund.transaction.id == "100" && refund.kind == .refundFull)
        // Both members were revoked within the hour of the purchase's refund: linked by it.
        #expect(refund.familyMembers == 2 && refund.linkMethods == [.revocationMatch])
        #expect(refund.price == usd("9.99") && refund.refundedInReportCurrency == usd("9.99"))
        // Served while valid: the purchaser's 2.00 and the member's 3.00; leaked after it: 1.00
        // + 4.00 of the purchaser, 0.50 of the member.
        #expect(refund.costPurchaser == usd("2.00"))
        #expect(refund.costFamily == usd("3.00"))
        #expect(refund.costAfterRevocation == usd("5.50"))
        #expect(refund.sunkCost == usd("10.50"))
    }

    @Test func leaksArePlacedByNoticeAndGrace() throws {
        let figures = try reportFigures(familyMonth)
        let byAccount = Dictionary(uniqueKeysWithValues: figures.leaks.map { ($0.account, $0) })
        #expect(figures.leaks.count == 2)
        let purchaser = try #require(byAccount["acct-p"])
        // The REFUND arrived 2 s after the revocation: 30 minutes later is inside the hour's grace.
        #expect(purchaser.transaction.id == "100" && purchaser.isLeak)
        #expect(purchaser.cell.byPhase == [.zero, usd("1.00"), usd("4.00")])
        let member = try #require(byAccount["acct-m1"])
        #expect(member.transaction.id == "201")
        #expect(member.cell.byPhase == [.zero, .zero, usd("0.50")])
    }

    @Test func costByDayAndTheTrendSumTheRowsByClass() throws {
        let figures = try reportFigures(familyMonth)
        let days = figures.costByDay.map {
            "\(CivilDate(dayNumber: $0.day)) \($0.category) \($0.costClass.reportName) \($0.rows) \($0.cost)"
        }
        #expect(
            days == [
                "2026-10-06 compute paid 1 2.000000", "2026-10-06 compute family_shared 1 3.000000",
                "2026-10-06 compute unlinked 1 1.000000", "2026-10-11 compute after_refund 2 5.000000",
                "2026-10-13 compute after_refund 1 0.500000",
            ])
        let trend = Dictionary(uniqueKeysWithValues: figures.trend.map { ($0.month.description, $0.classes) })
        #expect(trend["2026-09"]?[.unlinked] == usd("0.25"))
        #expect(try trend["2026-09"]?.total() == usd("0.25"))
        let october = try #require(trend["2026-10"])
        #expect(october[.paid] == usd("2.00") && october[.familyShared] == usd("3.00"))
        #expect(october[.unlinked] == usd("1.00") && october[.afterRefund] == usd("5.50"))
        #expect(try october.total() == usd("11.50"))
    }

    @Test func theSummaryIsPerProductAndTheTotalIsTheirSum() throws {
        let figures = try reportFigures(familyMonth)
        #expect(figures.summary.map { $0.product ?? "" } == ["", "pro.lifetime"])
        let lifetime = try #require(figures.summary.last)
        #expect(lifetime.classes[.paid] == usd("2.00") && lifetime.classes[.familyShared] == usd("3.00"))
        #expect(lifetime.classes[.afterRefund] == usd("5.50"))
        // Leaked beyond grace: the purchaser's 4.00 and the member's 0.50, two accounts.
        #expect(lifetime.leakedBeyondGrace == usd("4.50") && lifetime.leakedAccounts == 2)
        #expect(lifetime.refunds == 1 && lifetime.familyRefunds == 2 && lifetime.refundedAmount == usd("9.99"))
        #expect(lifetime.refundSunkCost == usd("10.50"))
        let none = try #require(figures.summary.first)
        #expect(none.classes[.unlinked] == usd("1.00"))
        #expect(try figures.total.classes.total() == usd("11.50") && figures.total.refunds == 1)
    }

    @Test func theCostRowsAreCountedAroundTheWindow() throws {
        let rows = try reportFigures(familyMonth).costRows
        #expect(rows.rowsInWindow == 6 && rows.rowsBeforeWindow == 1 && rows.rowsAfterWindow == 0)
        let dollars = try #require(rows.byCurrency.first)
        #expect(rows.byCurrency.count == 1 && dollars.currency == .usd)
        #expect(dollars.inWindow == usd("11.50") && dollars.beforeWindow == usd("0.25"))
        #expect(dollars.afterWindow == .zero && dollars.classes == usd("11.50"))
    }

    @Test func familyLinksAndFamilySpendFollowTheEvidence() throws {
        let figures = try reportFigures(familyMonth)
        #expect(figures.familyLinks.map { "\($0.member.id)>\($0.purchaserTransactionID ?? "")" } == ["201>100", "202>100"])
        #expect(figures.familyLinks.allSatisfy { $0.method == .revocationMatch })
        let spend = figures.familySpend.map {
            "\($0.role) \($0.account ?? "") \($0.transactionID) \($0.costEntitled) \($0.costAfterEnd)"
        }
        // acct-m2 served nothing: a person without cost in the window has no row.
        #expect(spend == ["purchaser acct-p 100 2.000000 5.000000", "member acct-m1 201 3.000000 0.500000"])
    }

    /// The page's family counts tell accounts apart by their bytes, as the ledger does
    /// (docs/inputs.md, "Identifiers"): two members whose account ids are one name in two
    /// Unicode forms are two members, each served 1.00 while entitled, of one shared purchase.
    @Test func membersInTwoUnicodeFormsAreTwoMembers() throws {
        let (composed, decomposed) = ("acct-\u{E9}", "acct-e\u{301}")
        var fixture = F.familyRefund(members: [composed, decomposed])
        fixture.cost(composed, at: t0 + 5 * d, "1.00")
        fixture.cost(decomposed, at: t0 + 5 * d, "1.00")
        let figures = try reportFigures(fixture)
        #expect(figures.familySpend.filter { $0.role == .member }.count == 2)
        #expect(figures.counts.familyMembers == 2)
        #expect(figures.counts.familyMembersServed == 2)
        #expect(figures.counts.familyMembersUnlinked == 0)
        #expect(figures.counts.sharedPurchases == 1)
    }

    /// A family subscription renewed once, each person one row over every renewal and link.
    ///
    /// acct-p's 500 (September 11 to October 11) and its renewal 510, acct-m's share 600 an
    /// hour after each (its renewal 610). acct-u's share 700 on October 4 matches no purchase.
    /// acct-p is served 1.00 on October 6 (on 500) and 2.00 on October 16 (on 510); acct-m 3.00
    /// on October 6 (600) and nothing on 610; acct-u 0.50.
    @Test func aPersonIsOneRowOverEveryRenewalAndEveryLink() throws {
        let monthly = "Auto-Renewable Subscription"
        var fixture = F()
        fixture.products += "pro.monthly,\(monthly),P1M,\n"
        let renewal = t0 + 10 * d
        func subscription(_ id: String, _ original: String, ownership: String, purchase: Int64, expires: Int64) -> [String: Any] {
            F.transaction(
                id, original: original, product: "pro.monthly", ownership: ownership, type: monthly, purchase: purchase,
                expires: expires, signed: purchase)
        }
        for (id, original, ownership, purchase, expires) in [
            ("500", "500", "PURCHASED", t0 - 20 * d, renewal), ("510", "500", "PURCHASED", renewal, t0 + 40 * d),
            ("600", "600", "FAMILY_SHARED", t0 - 20 * d + h, renewal),
            ("610", "600", "FAMILY_SHARED", renewal + h, t0 + 40 * d),
            ("700", "700", "FAMILY_SHARED", t0 + 3 * d, t0 + 33 * d),
        ] {
            fixture.notify(
                id == original ? "SUBSCRIBED" : "DID_RENEW", uuid: "n-\(id)", signed: purchase,
                transaction: subscription(id, original, ownership: ownership, purchase: purchase, expires: expires))
        }
        fixture.link("acct-p", "500")
        fixture.link("acct-m", "600")
        fixture.link("acct-u", "700")
        fixture.cost("acct-p", at: t0 + 5 * d, "1.00")
        fixture.cost("acct-p", at: t0 + 15 * d, "2.00")
        fixture.cost("acct-m", at: t0 + 5 * d, "3.00")
        fixture.cost("acct-u", at: t0 + 5 * d, "0.50")
        let figures = try reportFigures(fixture)
        #expect(
            figures.familyLinks.map { "\($0.member.id)>\($0.purchaserTransactionID ?? "")" } == ["600>500", "610>510", "700>"])
        let spend = figures.familySpend.map {
            "\($0.purchaserTransactionID) \($0.role) \($0.account ?? "") \($0.transactionID) \($0.costEntitled) "
                + "\($0.costAfterEnd) \($0.linkMethods.map(\.rawValue))"
        }
        // Each person once, under the original ids; the family of 500 first, the member linked to
        // none last.
        #expect(
            spend == [
                "500 purchaser acct-p 500 3.000000 0.000000 []",
                "500 member acct-m 600 3.000000 0.000000 [\"purchase_match\"]",
                " member acct-u 700 0.500000 0.000000 [\"none\"]",
            ])
    }

    @Test func theMonthBeforeIsFromTheSameData() throws {
        let previous = try #require(try reportFigures(familyMonth).previousMonth)
        #expect(previous.month.description == "2026-09")
        #expect(previous.costServed == usd("0.25") && previous.refundedAmount == .zero)
        #expect(previous.leaked == .zero && previous.refundSunkCost == .zero)
    }

    @Test func accessSegmentsAreTheClassesARowWouldGet() throws {
        let ledger = try buildLedger(try familyMonth.write()).ledger
        let segments = AccessSegmentFigure.all(ledger, grace: .hours(1)).filter { $0.account == "acct-p" }
        // Unentitled, premature from two hours before the purchase, paid, then after the refund.
        #expect(segments.map(\.costClass) == [.unentitled, .premature, .paid, .afterRefund])
        #expect(segments.map { $0.start?.milliseconds } == [nil, t0 - 2 * h, t0, t0 + 10 * d])
        #expect(segments.dropFirst().allSatisfy { $0.productID == "pro.lifetime" })
    }

    /// acct-s subscribes to pro.monthly on September 20 (expires October 20), refunded October
    /// 5; served 2.00 on October 10 and 1.00 on October 28, both in the first month after the
    /// refund, the second in the last 7 days of the window.
    @Test func aLeakedSubscriptionRecursUntilSomeoneActs() throws {
        let fixture = F.refundedSubscription
        let loss = try #require(try reportFigures(fixture).subscriptionLosses.first)
        #expect(loss.account == "acct-s" && loss.transaction.id == "300")
        #expect(loss.leakedPeriods == 1 && loss.leakedCost == usd("3.00") && loss.costPerPeriod == usd("3.00"))
        // Still leaking in the window's last 7 days; both rows in its last 30.
        #expect(loss.stillLeaking && loss.runRate30Days == usd("3.00"))
        #expect(loss.billingGraceCost == .zero)
    }

    /// A refund request for 100 signed on October 9, answered (GRANT_FULL) an hour later; Apple
    /// refunded it on October 11.
    @Test func aRequestIsDueIn12HoursAndAnsweringEarnedIsJoinedToItsOutcome() throws {
        var fixture = familyMonth
        let signed = t0 + 8 * d
        fixture.notify(
            "CONSUMPTION_REQUEST", uuid: "request", signed: signed,
            transaction: F.transaction("100", purchase: t0, signed: signed), reason: "UNINTENDED_PURCHASE")
        let entry = JournalEntry(
            state: .sent, lastAt: Timestamp(milliseconds: signed + h), appleErrorCode: nil,
            sentAt: Timestamp(milliseconds: signed + h), sentPreference: .grantFull)
        let figures = try reportFigures(fixture, journal: ["request": entry])
        let request = try #require(figures.consumption.first)
        #expect(request.transactionID == "100" && request.account == "acct-p")
        #expect(request.respondBy.milliseconds == signed + 12 * h && request.pastRespondBy)
        // Granted when Apple signed the REFUND, a second after the revocation it dates.
        #expect(request.outcome == .granted && request.outcomeAt?.milliseconds == t0 + 10 * d + 1000)
        #expect(request.answered?.state == "sent" && request.answered?.inTime == true)
        let answering = try #require(figures.answering)
        #expect(answering.answered == 1 && answering.decided == 1 && answering.decidedAsPreferred == 1)
        #expect(answering.granted == 1 && answering.priceRefunded == usd("9.99") && answering.priceKept == .zero)
        #expect(answering.deliveryCostRefunded == request.deliveredCost)
        // Without a journal nothing is said of answers.
        #expect(try reportFigures(fixture).answering == nil)
    }

    func reportFigures(
        _ fixture: AppStoreFixture, journal: [String: JournalEntry]? = nil, label: String = #function
    ) throws -> ReportFigures {
        try octoberFigures(fixture, journal: journal, label: label)
    }
}
