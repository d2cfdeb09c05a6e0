import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Pipeline
@testable import Report
@testable import Support
@testable import TestSupport

/// `export-access` is what the benchmark's independent SQL check classifies cost rows by, so
/// its rows are checked by hand here.
@Suite("Access timeline export")
struct AccessTimelineFileTests {
    typealias F = AppStoreFixture
    let t0 = AppStoreFixture.october
    let h = AppStoreFixture.hour
    let d = AppStoreFixture.day

    @Test func aRefundedPurchaseAndAMemberGiveTheirSegments() throws {
        var fixture = F()
        let refundAt = t0 + 10 * d
        fixture.notify("ONE_TIME_CHARGE", uuid: "buy", signed: t0, transaction: F.transaction("100", purchase: t0, signed: t0))
        fixture.notify(
            "REFUND", uuid: "refund", signed: refundAt + 1000,
            transaction: F.transaction("100", purchase: t0, signed: refundAt + 1000, extra: ["revocationDate": refundAt]))
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "share", signed: t0 + h,
            transaction: F.transaction("201", ownership: "FAMILY_SHARED", purchase: t0 + h, signed: t0 + h))
        fixture.link("p", "100")
        fixture.link("m", "201")
        fixture.cost("p", at: t0, "1.00")
        let root = try fixture.write()
        var options = LedgerLoad.Options(asOf: t0.adding(days: 31))
        options.extraTrustRoots = [F.chain.root]
        let loaded = try LedgerLoad(data: root, options: options, rejects: RejectLog())
        let out = try TestFiles.temporaryDirectory() + "/access.csv"
        try AccessTimelineFile.write(AccessSegmentFigure.all(loaded.ledger, grace: .hours(1)), to: out)
        // Hand-written: October 1 00:00 UTC is 1790812800000 ms; the member's share came an
        // hour later, each grant is preceded by its two-hour premature window, the refund on
        // October 11.
        #expect(t0 == 1_790_812_800_000)
        #expect(
            try TestFiles.read(out) == """
                account_id,start_ms,class,product_id,start,end
                m,,unentitled,,,2026-09-30T23:00:00.000Z
                m,1790809200000,premature,pro.lifetime,2026-09-30T23:00:00.000Z,2026-10-01T01:00:00.000Z
                m,1790816400000,family_shared,pro.lifetime,2026-10-01T01:00:00.000Z,
                p,,unentitled,,,2026-09-30T22:00:00.000Z
                p,1790805600000,premature,pro.lifetime,2026-09-30T22:00:00.000Z,2026-10-01T00:00:00.000Z
                p,1790812800000,paid,pro.lifetime,2026-10-01T00:00:00.000Z,2026-10-11T00:00:00.000Z
                p,1791676800000,after_refund,pro.lifetime,2026-10-11T00:00:00.000Z,

                """)
    }
}

extension Int64 {
    /// `self` as epoch milliseconds plus whole days, as a timestamp.
    func adding(days: Int64) -> Timestamp { Timestamp(milliseconds: self + days * 86_400_000) }
}
