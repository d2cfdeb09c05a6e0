import Testing

@testable import Ingest
@testable import Ledger
@testable import Support
@testable import TestSupport

/// One test per docs/domain.md ledger rule, on hand-built histories with figures worked out by hand.
@Suite("Entitlement ledger")
struct LedgerRuleTests {
    typealias F = AppStoreFixture
    let t0 = AppStoreFixture.october
    let h = AppStoreFixture.hour
    let d = AppStoreFixture.day

    @Test func familyRefundEndsPurchaserAndMembers() throws {
        let (ledger, _, rejects) = try buildLedger(try F.familyRefund().write())
        #expect(rejects.count == 0)
        let purchase = try #require(ledger.transaction("100"))
        #expect(
            purchase.end
                == AccessEnd(
                    kind: .refundFull, at: Timestamp(milliseconds: t0 + 10 * d),
                    noticedAt: Timestamp(milliseconds: t0 + 10 * d + 2000), notificationUUID: "refund"))
        for member in ["201", "202"] {
            let end = try #require(ledger.transaction(member)?.end)
            #expect(end.kind == .familyRefund)
            #expect(end.noticedAt.milliseconds == t0 + 10 * d + 4 * 60_000)
            #expect(ledger.purchaser(ofMember: ledger.index(member)) == ledger.index("100"))
            #expect(ledger.familyLinks[ledger.familyLink(ofMember: ledger.index(member)) ?? -1].method == .revocationMatch)
        }
        #expect(ledger.members(ofPurchase: ledger.index("100")) == [ledger.index("201"), ledger.index("202")])
        #expect(ledger.access("acct-m1", at: t0 + 5 * d) == .entitled(transaction: ledger.index("201")))
        #expect(ledger.access("acct-m1", at: t0 + 11 * d) == .ended(transaction: ledger.index("201")))
        #expect(ledger.access("acct-p", at: t0 + 10 * d - 1) == .entitled(transaction: ledger.index("100")))
        #expect(ledger.access("acct-p", at: t0 + 10 * d) == .ended(transaction: ledger.index("100")))
    }

    @Test func outOfOrderAndRetriedNotificationsGiveTheSameLedger() throws {
        var shuffled = F.familyRefund()
        shuffled.notificationLines.reverse()
        shuffled.notificationLines.append(shuffled.notificationLines[0])
        shuffled.notificationLines.append(shuffled.notificationLines[2])
        let inOrder = try buildLedger(try F.familyRefund().write("in-order")).ledger
        let reordered = try buildLedger(try shuffled.write("reordered")).ledger
        #expect(inOrder.transactions.map(withoutSource) == reordered.transactions.map(withoutSource))
        #expect(inOrder.familyLinks == reordered.familyLinks)
        for account in ["acct-p", "acct-m1", "acct-m2"] {
            for offset in stride(from: -d, through: 20 * d, by: Int64.Stride(h)) {
                #expect(inOrder.access(account, at: t0 + offset) == reordered.access(account, at: t0 + offset))
            }
        }
    }

    @Test func asOfBeforeTheRefundLeavesTheMonthAsItWas() throws {
        let (ledger, load, _) = try buildLedger(try F.familyRefund().write(), asOf: t0 + 10 * d - 1)
        #expect(ledger.transaction("100")?.end == nil)
        #expect(ledger.transaction("201")?.end == nil)
        #expect(load.input.counts.notificationsSignedAfterAsOf == 3)
        #expect(ledger.access("acct-m1", at: t0 + 11 * d) == .entitled(transaction: ledger.index("201")))
    }

    @Test func undatedRevokeIsAFamilyExitAtItsSignedDate() throws {
        let (ledger, _, _) = try buildLedger(try F.memberLeavesTheFamily().write())
        #expect(
            ledger.transaction("201")?.end
                == AccessEnd(
                    kind: .familyExit, at: Timestamp(milliseconds: t0 + 5 * d),
                    noticedAt: Timestamp(milliseconds: t0 + 5 * d + 30_000),
                    notificationUUID: "leave"))
        #expect(ledger.transaction("100")?.end == nil)
        #expect(ledger.access("acct-m", at: t0 + 6 * d) == .ended(transaction: ledger.index("201")))
        // Linked by purchase time: bought an hour before the member's grant.
        #expect(ledger.familyLinks.first?.method == .purchaseMatch)
    }

    /// A shared subscription's purchaser is the purchase of the same product, bought up to two
    /// hours before the member's copy, whose period expires when the member's does: of two
    /// subscribers that hour, the one whose period matches; with no period matching, nobody.
    @Test func sharedSubscriptionLinksToThePurchaseWithItsPeriod() throws {
        let sub = "Auto-Renewable Subscription"
        func fixture(memberExpires: Int64) -> F {
            var fixture = F()
            fixture.notify(
                "SUBSCRIBED", uuid: "a", signed: t0,
                transaction: F.transaction(
                    "100", product: "pro.monthly", type: sub, purchase: t0, expires: t0 + 30 * d, signed: t0))
            fixture.notify(
                "SUBSCRIBED", uuid: "b", signed: t0 + h / 2,
                transaction: F.transaction(
                    "110", product: "pro.monthly", type: sub, purchase: t0 + h / 2, expires: t0 + 31 * d, signed: t0 + h / 2))
            fixture.notify(
                "SUBSCRIBED", uuid: "m", signed: t0 + h,
                transaction: F.transaction(
                    "201", product: "pro.monthly", ownership: "FAMILY_SHARED", type: sub, purchase: t0 + h,
                    expires: memberExpires, signed: t0 + h))
            fixture.link("acct-a", "100")
            fixture.link("acct-b", "110")
            fixture.link("acct-m", "201")
            return fixture
        }
        let (matched, _, _) = try buildLedger(try fixture(memberExpires: t0 + 30 * d).write())
        #expect(matched.familyLinks.count == 1)
        #expect(matched.familyLinks.first?.method == .purchaseMatch)
        #expect(matched.familyLinks.first?.purchaser == matched.index("100"))
        let (none, _, _) = try buildLedger(try fixture(memberExpires: t0 + 29 * d).write())
        #expect(none.familyLinks.first?.method == FamilyLinkMethod.none)
        #expect(none.familyLinks.first?.purchaser == nil)
    }

    @Test func datedFamilyRevokeWithoutARefundIsAnExit() throws {
        var fixture = F()
        fixture.notify("ONE_TIME_CHARGE", uuid: "buy", signed: t0, transaction: F.transaction("100", purchase: t0, signed: t0))
        fixture.notify(
            "REVOKE", uuid: "leave", signed: t0 + 5 * d,
            transaction: F.transaction(
                "201", ownership: "FAMILY_SHARED", purchase: t0 + h, signed: t0 + 5 * d,
                extra: ["revocationDate": t0 + 5 * d, "revocationReason": 0, "revocationType": "FAMILY_REVOKE"]))
        fixture.link("acct-m", "201")
        let (ledger, _, _) = try buildLedger(try fixture.write())
        #expect(ledger.transaction("201")?.end?.kind == .familyExit)
    }

    @Test func memberWithASecondValidTransactionStaysEntitled() throws {
        var fixture = F.familyRefund()
        // acct-m1 also bought the product itself, a week before.
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "own", signed: t0 - 7 * d,
            transaction: F.transaction("150", purchase: t0 - 7 * d, signed: t0 - 7 * d))
        fixture.link("acct-m1", "150")
        let (ledger, _, _) = try buildLedger(try fixture.write())
        // Before the refund both grant; the PURCHASED one wins the tie-break.
        #expect(ledger.access("acct-m1", at: t0 + 2 * d) == .entitled(transaction: ledger.index("150")))
        #expect(ledger.access("acct-m1", at: t0 + 11 * d) == .entitled(transaction: ledger.index("150")))
        #expect(ledger.access("acct-m2", at: t0 + 11 * d) == .ended(transaction: ledger.index("202")))
    }

    @Test func reversedRefundRestoresAccess() throws {
        let fixture = F.reversedRefund(purchaser: "acct-p")
        let (ledger, _, _) = try buildLedger(try fixture.write())
        let transaction = try #require(ledger.transaction("100"))
        #expect(transaction.end == nil)
        #expect(transaction.reversals == [Timestamp(milliseconds: t0 + 6 * d)])
        #expect(ledger.reversalNotifications.count == 1)
        #expect(ledger.access("acct-p", at: t0 + 3 * d) == .entitled(transaction: ledger.index("100")))
        // Read as of a day after the refund, before the reversal, it is revoked.
        let before = try buildLedger(try fixture.write("before"), asOf: t0 + 3 * d).ledger
        #expect(before.transaction("100")?.end?.kind == .refundFull)
    }

    @Test func proratedRefund() throws {
        var fixture = F()
        fixture.notify(
            "REFUND", uuid: "refund", signed: t0 + 2 * d,
            transaction: F.transaction(
                "100", purchase: t0, signed: t0 + 2 * d,
                extra: [
                    "revocationDate": t0 + 2 * d, "revocationReason": 0, "revocationType": "REFUND_PRORATED",
                    "revocationPercentage": 25000,
                ]))
        let (ledger, _, _) = try buildLedger(try fixture.write())
        #expect(ledger.transaction("100")?.end?.kind == .refundProrated)
        #expect(ledger.transaction("100")?.record.revocationPercentage == 25000)
    }

    @Test func upgradeIsNotARefundAndAccessGoesOn() throws {
        var fixture = F()
        let sub = "Auto-Renewable Subscription"
        fixture.historyLines.append(
            F.json([
                "signedTransactions": [
                    F.jws(
                        F.transaction(
                            "100", product: "pro.monthly", type: sub, purchase: t0, expires: t0 + 30 * d, signed: t0 + 10 * d,
                            extra: ["isUpgraded": true, "revocationDate": t0 + 10 * d, "revocationReason": 0])),
                    F.jws(
                        F.transaction(
                            "101", original: "100", product: "max.monthly", type: sub, purchase: t0 + 10 * d,
                            expires: t0 + 40 * d, signed: t0 + 10 * d)),
                ]
            ]))
        fixture.link("acct-p", "100")
        let (ledger, _, _) = try buildLedger(try fixture.write())
        #expect(ledger.transaction("100")?.end?.kind == .upgrade)
        #expect(ledger.access("acct-p", at: t0 + 10 * d + 1) == .entitled(transaction: ledger.index("101")))
        #expect(ledger.access("acct-p", at: t0 + 41 * d) == .ended(transaction: ledger.index("101")))
        #expect(ledger.transaction("101")?.end?.kind == .expiry)
    }

    @Test func expiryEndsASubscriptionAndNoticeIsTheExpiresDate() throws {
        var fixture = F()
        fixture.notify(
            "SUBSCRIBED", uuid: "sub", signed: t0,
            transaction: F.transaction(
                "100", product: "pro.monthly", type: "Auto-Renewable Subscription", purchase: t0, expires: t0 + 30 * d, signed: t0
            ))
        fixture.link("acct-p", "100")
        let (ledger, _, _) = try buildLedger(try fixture.write())
        let expires = Timestamp(milliseconds: t0 + 30 * d)
        #expect(
            ledger.transaction("100")?.end == AccessEnd(kind: .expiry, at: expires, noticedAt: expires, notificationUUID: nil))
        #expect(ledger.access("acct-p", at: t0 + 31 * d) == .ended(transaction: ledger.index("100")))
    }

    @Test func prematureWindowBeforeAGrantAndNothingBeforeThat() throws {
        let (ledger, _, _) = try buildLedger(try F.familyRefund().write())
        // The members' grant starts at t0 + 1h; the default window is two hours.
        #expect(ledger.access("acct-m1", at: t0) == .premature(transaction: ledger.index("201")))
        #expect(ledger.access("acct-m1", at: t0 - h + 1) == .premature(transaction: ledger.index("201")))
        #expect(ledger.access("acct-m1", at: t0 - h - 1) == .none)
        #expect(ledger.access("nobody", at: t0) == .none)
        #expect(ledger.accountIndex(of: "nobody") == nil)
    }

    @Test func ambiguousPurchasesLeaveTheMemberUnlinked() throws {
        var fixture = F()
        fixture.notify("ONE_TIME_CHARGE", uuid: "a", signed: t0, transaction: F.transaction("100", purchase: t0, signed: t0))
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "b", signed: t0 + 30 * 60_000,
            transaction: F.transaction("110", purchase: t0 + 30 * 60_000, signed: t0 + 30 * 60_000))
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "c", signed: t0 + h,
            transaction: F.transaction("201", ownership: "FAMILY_SHARED", purchase: t0 + h, signed: t0 + h))
        fixture.link("acct-a", "100")
        fixture.link("acct-b", "110")
        fixture.link("acct-m", "201")
        let (ledger, _, _) = try buildLedger(try fixture.write())
        #expect(ledger.familyLinks == [FamilyLink(member: ledger.index("201"), purchaser: nil, method: .ambiguous)])
        #expect(ledger.members(ofPurchase: ledger.index("100")).isEmpty)
    }

    @Test func sandboxDataChangesNothing() throws {
        var fixture = F.familyRefund()
        var test = F.transaction("100", purchase: t0, signed: t0 + 20 * d, extra: ["revocationDate": t0 + 1 * d])
        test["environment"] = "Sandbox"
        fixture.notify("REFUND", uuid: "sandbox", signed: t0 + 20 * d, transaction: test, environment: "Sandbox")
        let plain = try buildLedger(try F.familyRefund().write("plain")).ledger
        let noisy = try buildLedger(try fixture.write("noisy")).ledger
        #expect(plain.transactions.map(withoutSource) == noisy.transactions.map(withoutSource))
        // Asked for the Sandbox, only the Sandbox copy is seen.
        let sandboxOnly = try buildLedger(try fixture.write("sandbox"), environment: .sandbox).ledger
        #expect(sandboxOnly.transactions.map(\.id) == ["100"])
        #expect(sandboxOnly.transaction("100")?.end?.at.milliseconds == t0 + d)
    }

    @Test func appAccountTokenLinksAndConflictsAreReported() throws {
        var fixture = F()
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "a", signed: t0,
            transaction: F.transaction("100", purchase: t0, signed: t0, extra: ["appAccountToken": "tok-a"]))
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "b", signed: t0,
            transaction: F.transaction("110", purchase: t0, signed: t0, extra: ["appAccountToken": "acct-b"]))
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "c", signed: t0,
            transaction: F.transaction("120", purchase: t0, signed: t0, extra: ["appAccountToken": "tok-a"]))
        fixture.link("acct-a", "", token: "tok-a")
        fixture.link("acct-c", "120")
        let (ledger, _, rejects) = try buildLedger(try fixture.write())
        #expect(ledger.transaction("100")?.account == ledger.accountIndex(of: "acct-a"))
        #expect(ledger.transaction("110")?.account == ledger.accountIndex(of: "acct-b"))
        #expect(ledger.transaction("120")?.account == ledger.accountIndex(of: "acct-c"))
        #expect(ledger.linkConflicts.count == 1)
        #expect(rejects.firstRejects.first?.reason.contains("held by account acct-c") == true)
    }

    @Test func aTransactionClaimedByTwoAccountsIsRejected() throws {
        var fixture = F()
        fixture.notify("ONE_TIME_CHARGE", uuid: "a", signed: t0, transaction: F.transaction("100", purchase: t0, signed: t0))
        fixture.link("acct-a", "100")
        fixture.link("acct-b", "100")
        let (ledger, _, rejects) = try buildLedger(try fixture.write())
        #expect(ledger.accounts == ["acct-a"])
        #expect(rejects.firstRejects.map(\.line) == [3])
        #expect(rejects.firstRejects.first?.reason.hasPrefix("conflict: already claimed by account acct-a on line 2") == true)
    }
}

/// Where a copy was read differs between two fixture folders; everything else must not.
func withoutSource(_ transaction: LedgerTransaction) -> LedgerTransaction {
    var copy = transaction
    copy.record.source = SourceLocation(file: "", line: 0)
    return copy
}
