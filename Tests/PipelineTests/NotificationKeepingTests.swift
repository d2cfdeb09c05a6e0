import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Pipeline
@testable import Report
@testable import Support
@testable import TestSupport

/// A report keeps whole only the notifications the ledger reads.
///
/// The others are counted and their transaction copies kept: the ledger must not tell the
/// difference.
@Suite("Notifications kept for the ledger")
struct NotificationKeepingTests {
    typealias F = AppStoreFixture
    let t0 = AppStoreFixture.october
    let d = AppStoreFixture.day

    func fixture() -> F {
        var fixture = F()
        let refundAt = t0 + 10 * d
        fixture.notify("ONE_TIME_CHARGE", uuid: "buy", signed: t0, transaction: F.transaction("100", purchase: t0, signed: t0))
        // A retry of the purchase's notification, received later: a duplicate, counted.
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "buy", signed: t0, transaction: F.transaction("100", purchase: t0, signed: t0),
            received: t0 + d)
        fixture.notify(
            "REFUND", uuid: "refund", signed: refundAt + 1000,
            transaction: F.transaction("100", purchase: t0, signed: refundAt + 1000, extra: ["revocationDate": refundAt]))
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "share", signed: t0 + 1000,
            transaction: F.transaction("201", ownership: "FAMILY_SHARED", purchase: t0 + 1000, signed: t0 + 1000))
        fixture.notify(
            "REVOKE", uuid: "left", signed: t0 + 5 * d,
            transaction: F.transaction("201", ownership: "FAMILY_SHARED", purchase: t0 + 1000, signed: t0 + 5 * d))
        // A type Apple may add later, whose copy shows a revocation: what ended the access counts.
        fixture.notify(
            "SOMETHING_NEW", uuid: "new", signed: t0 + 6 * d,
            transaction: F.transaction("300", purchase: t0, signed: t0 + 6 * d, extra: ["revocationDate": t0 + 6 * d]))
        fixture.notify(
            "CONSUMPTION_REQUEST", uuid: "ask", signed: t0 + 2 * d, transaction: F.transaction("300", purchase: t0, signed: t0),
            reason: "UNINTENDED_PURCHASE")
        fixture.link("p", "100")
        fixture.link("m", "201")
        fixture.link("q", "300")
        fixture.cost("p", at: t0, "1.00")
        return fixture
    }

    func load(_ root: String, keeping: @escaping (NotificationRecord) -> Bool) throws -> (AppStoreLoad, Ledger) {
        let asOf = Timestamp(milliseconds: t0 + 31 * d)
        let load = try AppStoreLoad(
            layout: InputLayout(root: root), options: AppStoreOptions(asOf: asOf, signatures: F.signatures(asOf: asOf)),
            rejects: RejectLog(), keepsNotification: keeping)
        let ledger = try Ledger(
            input: load.input, accountLinks: load.accountLinks, products: load.products, options: LedgerOptions(asOf: asOf),
            rejects: RejectLog())
        return (load, ledger)
    }

    @Test func onlyTheNotificationsTheLedgerReadsAreKeptAndTheLedgerIsTheSame() throws {
        let root = try fixture().write()
        let (all, full) = try load(root, keeping: { _ in true })
        let (some, kept) = try load(root, keeping: { Ledger.reads($0) })
        #expect(all.input.notifications.map(\.uuid) == ["buy", "refund", "share", "left", "new", "ask"])
        // The purchases' notifications say nothing their transaction copies do not.
        #expect(some.input.notifications.map(\.uuid) == ["refund", "left", "new", "ask"])
        #expect(some.input.counts == all.input.counts)
        #expect(some.input.counts.duplicateNotifications == 1)
        #expect(some.input.counts.notificationsByType["ONE_TIME_CHARGE"] == 2)
        #expect(kept.transactions.map(\.record) == full.transactions.map(\.record))
        #expect(kept.transactions.map(\.end) == full.transactions.map(\.end))
        #expect(kept.transactions.map(\.reversals) == full.transactions.map(\.reversals))
        #expect(kept.familyLinks == full.familyLinks)
        // The figures read the request whole, and the refund decisions (a REVOKE decides a
        // request as a REFUND does) as their transaction, time and kind.
        #expect(kept.notifications.map(\.uuid) == ["ask"])
        #expect(kept.notifications == full.notifications)
        #expect(
            kept.refundDecisions.map { "\($0.transactionID) \($0.signedDate.milliseconds - t0) \($0.declined)" } == [
                "100 \(10 * d + 1000) false", "201 \(5 * d) false",
            ])
        #expect(kept.refundDecisions == full.refundDecisions)
        #expect(
            AccessSegmentFigure.all(kept, grace: .hours(1)).map { "\($0)" }
                == AccessSegmentFigure.all(full, grace: .hours(1)).map { "\($0)" })
        // Each refund-like end is there to compare: a refund, a member who left, a new type's revocation.
        #expect(kept.transactions.compactMap(\.end).count == 3)
    }
}
