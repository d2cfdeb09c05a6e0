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
        let index = classifier.ledger.accountIndex[account].map { Int32($0) }
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
}

extension Classification {
    init(costClass: CostClass, transaction: Int?) {
        self.init(costClass: costClass, transaction: transaction, phase: nil)
    }
}
