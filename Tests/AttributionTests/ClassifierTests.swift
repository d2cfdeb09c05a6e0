import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Support
@testable import TestSupport

/// The class and the tied transaction of a cost row at each moment of a family's refund, worked
/// out by hand from docs/domain.md rules 5, 6 and 8 (grace 1 hour, premature window 2 hours).
@Suite("Classifier: a row's class from the ledger's answer")
struct ClassifierTests {
    typealias F = AppStoreFixture
    let t0 = F.october
    let h = F.hour
    let d = F.day
    let minute: Int64 = 60_000

    func classify(_ classifier: Classifier, _ account: String, _ t: Int64) -> Classification {
        let index = classifier.ledger.accountIndex(of: account).map { Int32($0) }
        return classifier.classify(account: index, at: Timestamp(milliseconds: t))
    }

    @Test func everyMomentOfAFamilyRefund() throws {
        let ledger = try buildLedger(try F.familyRefund().write()).ledger
        let classifier = Classifier(ledger: ledger, grace: .hours(1))
        let purchase = ledger.index(of: "100")
        let member = ledger.index(of: "201")
        let refundAt = t0 + 10 * d

        // Before the purchase, beyond the 2-hour window: nothing justified it, no transaction.
        #expect(classify(classifier, "acct-p", t0 - 3 * h) == Classification(costClass: .unentitled, transaction: nil))
        // Inside the 2 hours before the purchase: premature, tied to it.
        #expect(classify(classifier, "acct-p", t0 - h) == Classification(costClass: .premature, transaction: purchase))
        #expect(classify(classifier, "acct-p", t0 + 5 * d) == Classification(costClass: .paid, transaction: purchase))
        #expect(classify(classifier, "acct-m1", t0 + 5 * d) == Classification(costClass: .familyShared, transaction: member))
        // Refunded at refundAt, received 2 s later: before notice, then within the hour's grace, then beyond.
        #expect(
            classify(classifier, "acct-p", refundAt + 1000)
                == Classification(costClass: .afterRefund, transaction: purchase, phase: .beforeNotice))
        #expect(
            classify(classifier, "acct-p", refundAt + 2000 + 59 * minute)
                == Classification(costClass: .afterRefund, transaction: purchase, phase: .withinGrace))
        #expect(
            classify(classifier, "acct-p", refundAt + 2000 + h)
                == Classification(costClass: .afterRefund, transaction: purchase, phase: .beyondGrace))
        // The member's REVOKE is dated 3 minutes after the refund and received a minute later.
        #expect(
            classify(classifier, "acct-m1", refundAt + 2 * minute)
                == Classification(costClass: .familyShared, transaction: member))
        #expect(
            classify(classifier, "acct-m1", refundAt + 3 * minute + 30_000)
                == Classification(costClass: .afterRefund, transaction: member, phase: .beforeNotice))
        #expect(
            classify(classifier, "acct-m1", refundAt + 2 * d)
                == Classification(costClass: .afterRefund, transaction: member, phase: .beyondGrace))
        // An account no transaction links to.
        #expect(classify(classifier, "nobody", t0) == Classification(costClass: .unlinked, transaction: nil))
    }

    /// A monthly subscription bought at t0 and never renewed expires at t0 + 30d: its notice is
    /// the expiry itself, so the grace runs from it.
    @Test func aSubscriptionThatExpired() throws {
        var fixture = F()
        fixture.notify(
            "SUBSCRIBED", uuid: "sub", signed: t0,
            transaction: F.transaction(
                "100", product: "pro.monthly", type: "Auto-Renewable Subscription", purchase: t0, expires: t0 + 30 * d, signed: t0
            ))
        fixture.link("acct-s", "100")
        let ledger = try buildLedger(try fixture.write()).ledger
        let subscription = ledger.index(of: "100")
        let expires = t0 + 30 * d
        for grace in [TimeSpan.hours(1), .hours(3)] {
            let classifier = Classifier(ledger: ledger, grace: grace)
            #expect(classify(classifier, "acct-s", t0 + 5 * d) == Classification(costClass: .paid, transaction: subscription))
            #expect(
                classify(classifier, "acct-s", expires + 30 * minute)
                    == Classification(costClass: .afterExpiry, transaction: subscription, phase: .withinGrace))
            // Two hours after the expiry: beyond one hour's grace, within three hours'.
            #expect(
                classify(classifier, "acct-s", expires + 2 * h)
                    == Classification(
                        costClass: .afterExpiry, transaction: subscription,
                        phase: grace == .hours(1) ? .beyondGrace : .withinGrace))
        }
    }

    /// A member leaves the family at t0 + 5d (an undated REVOKE, received 30 s later): what the
    /// member costs after is after_family_exit, tied to the member's transaction.
    @Test func aMemberWhoLeftTheFamily() throws {
        let ledger = try buildLedger(try F.memberLeavesTheFamily().write()).ledger
        let classifier = Classifier(ledger: ledger, grace: .hours(1))
        let member = ledger.index(of: "201")
        #expect(classify(classifier, "acct-m", t0 + 2 * d) == Classification(costClass: .familyShared, transaction: member))
        #expect(
            classify(classifier, "acct-m", t0 + 5 * d + 10_000)
                == Classification(costClass: .afterFamilyExit, transaction: member, phase: .beforeNotice))
        #expect(
            classify(classifier, "acct-m", t0 + 5 * d + 30_000 + 59 * minute)
                == Classification(costClass: .afterFamilyExit, transaction: member, phase: .withinGrace))
        #expect(
            classify(classifier, "acct-m", t0 + 6 * d)
                == Classification(costClass: .afterFamilyExit, transaction: member, phase: .beyondGrace))
        // The purchaser keeps the purchase.
        #expect(
            classify(classifier, "acct-p", t0 + 6 * d) == Classification(costClass: .paid, transaction: ledger.index(of: "100")))
    }

    /// A renewal failed at t0 + 9d and Apple kept access while it retried, until t0 + 25d, when
    /// the grace expired unpaid: billing_grace inside it, after_expiry once it is over.
    @Test func aBillingGraceNeverPaid() throws {
        var fixture = F()
        let (sep10, oct10) = (t0 - 21 * d, t0 + 9 * d)
        func monthly(_ signed: Int64) -> [String: Any] {
            F.transaction(
                "500", product: "pro.monthly", type: "Auto-Renewable Subscription", purchase: sep10, expires: oct10,
                signed: signed)
        }
        fixture.notify("SUBSCRIBED", uuid: "buy", signed: sep10, transaction: monthly(sep10))
        fixture.notify(
            "DID_FAIL_TO_RENEW", uuid: "fail", signed: oct10 + minute, transaction: monthly(oct10 + minute),
            subtype: "GRACE_PERIOD",
            renewal: [
                "originalTransactionId": "500", "productId": "pro.monthly", "autoRenewStatus": 1, "isInBillingRetryPeriod": true,
                "gracePeriodExpiresDate": t0 + 25 * d, "signedDate": oct10 + minute, "environment": "Production",
            ])
        fixture.notify("GRACE_PERIOD_EXPIRED", uuid: "over", signed: t0 + 25 * d, transaction: monthly(t0 + 25 * d))
        fixture.link("acct-s", "500")
        let ledger = try buildLedger(try fixture.write()).ledger
        let classifier = Classifier(ledger: ledger, grace: .hours(1))
        let subscription = ledger.index(of: "500")
        #expect(classify(classifier, "acct-s", t0 + 5 * d) == Classification(costClass: .paid, transaction: subscription))
        #expect(
            classify(classifier, "acct-s", t0 + 11 * d) == Classification(costClass: .billingGrace, transaction: subscription))
        #expect(
            classify(classifier, "acct-s", t0 + 25 * d - minute)
                == Classification(costClass: .billingGrace, transaction: subscription))
        #expect(classify(classifier, "acct-s", t0 + 27 * d).costClass == .afterExpiry)
    }

    /// Apple's ownership value for a transaction is one this version does not know: every class
    /// that would be tied to it is unknown_ownership, never guessed paid or leaked.
    @Test func anOwnershipThisVersionDoesNotKnow() throws {
        var fixture = F()
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "buy", signed: t0,
            transaction: F.transaction("100", ownership: "SHARED_SOMEHOW_NEW", purchase: t0, signed: t0))
        fixture.link("acct-x", "100")
        let ledger = try buildLedger(try fixture.write()).ledger
        let classifier = Classifier(ledger: ledger, grace: .hours(1))
        let transaction = ledger.index(of: "100")
        #expect(
            classify(classifier, "acct-x", t0 + d) == Classification(costClass: .unknownOwnership, transaction: transaction))
        #expect(
            classify(classifier, "acct-x", t0 - h) == Classification(costClass: .unknownOwnership, transaction: transaction))
        // Nothing tied to it before the premature window: unentitled as ever.
        #expect(classify(classifier, "acct-x", t0 - 3 * h) == Classification(costClass: .unentitled, transaction: nil))
    }

    @Test func everyClassHasItsCase() {
        // The classes the tests above reach, by hand: a new class needs a case of its own.
        let reached: Set<CostClass> = [
            .paid, .familyShared, .premature, .afterRefund, .afterFamilyExit, .afterExpiry, .unentitled, .unlinked,
            .billingGrace, .unknownOwnership,
        ]
        #expect(Set(CostClass.allCases) == reached)
    }
}

extension Classification {
    init(costClass: CostClass, transaction: Int?) {
        self.init(costClass: costClass, transaction: transaction, phase: nil)
    }
}
