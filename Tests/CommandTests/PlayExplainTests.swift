import Foundation
import Testing

@testable import TestSupport

/// `explain` on an account that bought on Google Play: each order's access, its voids, what
/// the developer keeps, the delivery cost while it gave access and what a chargeback lost,
/// worked out by hand.
@Suite struct PlayExplainTests {
    typealias F = AppStoreFixture
    static let day = F.day
    static let oct = F.october

    static func at(_ days: Int64, hours: Int64 = 0) -> Int64 { oct + days * day + hours * F.hour }
    static func iso(_ days: Int64) -> String { "2026-10-\(days + 1 < 10 ? "0" : "")\(days + 1)T00:00:00Z" }

    static func order(_ id: String, token: String, quantity: Int, created: Int64, revenue: String, extra: [String: Any] = [:])
        -> [String: Any]
    {
        var json = PlayInputTests.order(id, token: token, quantity: quantity, created: iso(created))
        json["developerRevenueInBuyerCurrency"] = ["currencyCode": "USD", "units": revenue, "nanos": 0]
        for (key, value) in extra { json[key] = value }
        return json
    }

    @Test func aChargebackLostWhatWasReceivedAndWhatWasDelivered() throws {
        var fixture = AppStoreFixture()
        // acct-1's delivery: 1 + 2 + 4 before the chargeback on day 8, 8 after it, 16 on day 13.
        for (days, amount) in [(5, "1.00"), (6, "2.00"), (7, "4.00"), (9, "8.00"), (13, "16.00")] {
            fixture.cost("acct-1", at: Self.at(Int64(days), hours: 12), amount)
        }
        fixture.cost("acct-2", at: Self.at(6, hours: 12), "100.00")
        let subscription = Self.order(
            "GPA.3", token: "tok-3", quantity: 1, created: 0, revenue: "5",
            extra: [
                "lineItems": [
                    [
                        "productId": "pro_monthly",
                        "subscriptionDetails": [
                            "servicePeriodStartTime": "2026-10-01T00:00:00Z", "servicePeriodEndTime": "2026-11-01T00:00:00Z",
                        ],
                    ]
                ]
            ])
        let orders = [
            F.json(Self.order("GPA.1", token: "tok-1", quantity: 3, created: 5, revenue: "3", extra: ["state": "REFUNDED"])),
            F.json(Self.order("GPA.2", token: "tok-2", quantity: 2, created: 11, revenue: "2")),
            F.json(subscription),
        ]
        func void(_ order: String, _ token: String, day: Int64, reason: Int, source: Int, quantity: Int? = nil) -> [String: Any] {
            var json: [String: Any] = [
                "purchaseToken": token, "orderId": order, "voidedTimeMillis": String(Self.at(day)), "voidedReason": reason,
                "voidedSource": source,
            ]
            if let quantity { json["voidedQuantity"] = quantity }
            return json
        }
        let voided = [
            F.json([
                "voidedPurchases": [
                    void("GPA.1", "tok-1", day: 7, reason: 1, source: 0, quantity: 1),
                    void("GPA.1", "tok-1", day: 8, reason: 7, source: 2),
                    void("GPA.2", "tok-2", day: 12, reason: 1, source: 0, quantity: 1),
                    void("GPA.3", "tok-3", day: 19, reason: 2, source: 1),
                ]
            ])
        ]
        let purchases = [
            F.json([
                "kind": "androidpublisher#productPurchaseV2", "purchaseToken": "tok-1", "obfuscatedExternalAccountId": "acct-1",
                "productLineItem": [["productId": "gems_100"]],
            ]),
            F.json([
                "kind": "androidpublisher#productPurchaseV2", "orderId": "GPA.2", "obfuscatedExternalAccountId": "acct-1",
                "productLineItem": [["productId": "gems_100"]],
            ]),
            F.json([
                "kind": "androidpublisher#subscriptionPurchaseV2", "purchaseToken": "tok-3",
                "externalAccountIdentifiers": ["obfuscatedExternalAccountId": "acct-1"],
                "lineItems": [["productId": "pro_monthly"]],
            ]),
        ]
        let root = try fixture.write()
        for (path, lines) in ["orders/o.jsonl": orders, "voided/v.jsonl": voided, "purchases/p.jsonl": purchases] {
            try TestFiles.write(lines.joined(separator: "\n") + "\n", to: root + "/play/" + path)
        }
        let run = try runTool(["explain", "--data", root, "--account", "acct-1"])
        #expect(run.status == 0, "\(run.stderr)")
        let out = run.stdout
        #expect(out.contains("Google Play orders (3)"), "\(out)")
        // GPA.3 (created day 0) first, then GPA.1 (day 5), then GPA.2 (day 11).
        let first = try #require(out.range(of: "  GPA.3 ")).lowerBound
        let second = try #require(out.range(of: "  GPA.1 ")).lowerBound
        #expect(first < second && second < (out.range(of: "  GPA.2 ")?.lowerBound ?? out.startIndex))
        #expect(
            out.contains(
                "  GPA.1  gems_100 x3, created 2026-10-06T00:00:00.000Z: paid 4.990000 USD, received 3.000000 USD (state REFUNDED)"
            ))
        #expect(out.contains("    access from 2026-10-06T00:00:00.000Z to 2026-10-09T00:00:00.000Z\n"))
        #expect(out.contains("    voided 2026-10-08T00:00:00.000Z: 1 of 3 units, refund (remorse), by the user\n"))
        #expect(out.contains("    voided 2026-10-09T00:00:00.000Z: the whole order, chargeback, by Google; access ends\n"))
        // Days 5, 6 and 7: 1 + 2 + 4; not day 9's 8, after the chargeback ended access; not acct-2's 100.
        // The chargeback takes back the 2 units the refund of day 7 left: 2 of 3 of the 3.00 received.
        #expect(out.contains("    delivery cost while it gave access: 7.000000 USD (3 rows)\n"))
        #expect(
            out.contains(
                "    chargeback lost: 2.000000 USD received, taken back, + 7.000000 USD delivered = 9.000000 USD, plus the bank's chargeback fee (give --chargeback-fee)"
            ))
        // GPA.2: 1 of 2 units refunded keeps half of 2.00; it lasts, so day 13's 16 counts.
        #expect(out.contains("    access from 2026-10-12T00:00:00.000Z, lasting\n"))
        #expect(out.contains("    kept of what was received: 1.000000 USD\n"))
        #expect(out.contains("    delivery cost while it gave access: 16.000000 USD (1 row)\n"))
        // GPA.3: a subscription's month, revoked whole on day 19 by the developer: every row from day 0 to day 19.
        #expect(out.contains("    access from 2026-10-01T00:00:00.000Z to 2026-10-20T00:00:00.000Z\n"))
        #expect(
            out.contains(
                "    voided 2026-10-20T00:00:00.000Z: the whole order, refund (not_received), by the developer; access ends\n"))
        #expect(out.contains("    delivery cost while it gave access: 31.000000 USD (5 rows)\n"))
        #expect(out.components(separatedBy: "chargeback lost").count == 2, "only GPA.1 was charged back")
        #expect(out.contains("not to be added up"), "GPA.3's month holds GPA.1's days")

        // As of day 8, before the chargeback: not yet voided, not yet lost, and GPA.2 not yet bought.
        let before = try runTool(["explain", "--data", root, "--account", "acct-1", "--as-of", "2026-10-08T12:00:00Z"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout.contains("Google Play orders (2)"), "\(before.stdout)")
        #expect(!before.stdout.contains("chargeback lost") && !before.stdout.contains("GPA.2"))
        #expect(before.stdout.contains("    access from 2026-10-06T00:00:00.000Z, lasting\n"))
    }
    @Test func aChargebackOfSomeUnitsTakesBackTheirShareAndAnotherCurrencyNeedsItsRate() throws {
        var fixture = AppStoreFixture()
        fixture.cost("acct-9", at: Self.at(3, hours: 1), "0.50")
        var euro = Self.order("GPA.E", token: "tok-e", quantity: 1, created: 2, revenue: "9")
        euro["developerRevenueInBuyerCurrency"] = ["currencyCode": "EUR", "units": "9", "nanos": 0]
        let orders = [F.json(Self.order("GPA.4", token: "tok-4", quantity: 4, created: 2, revenue: "8")), F.json(euro)]
        let voided = [
            F.json([
                "purchaseToken": "tok-4", "orderId": "GPA.4", "voidedTimeMillis": String(Self.at(4)), "voidedReason": 7,
                "voidedQuantity": 1,
            ]),
            F.json(["purchaseToken": "tok-e", "orderId": "GPA.E", "voidedTimeMillis": String(Self.at(4)), "voidedReason": 7]),
        ]
        let purchases = ["tok-4", "tok-e"].map { token in
            F.json([
                "kind": "androidpublisher#productPurchaseV2", "purchaseToken": token, "obfuscatedExternalAccountId": "acct-9",
                "productLineItem": [["productId": "gems_100"]],
            ])
        }
        let root = try fixture.write()
        for (path, lines) in ["orders/o.jsonl": orders, "voided/v.jsonl": voided, "purchases/p.jsonl": purchases] {
            try TestFiles.write(lines.joined(separator: "\n") + "\n", to: root + "/play/" + path)
        }
        let run = try runTool(["explain", "--data", root, "--account", "acct-9", "--chargeback-fee", "15"])
        #expect(run.status == 0, "\(run.stderr)")
        // 1 of 4 units charged back: a quarter of 8.00 taken back, three quarters kept; access goes on.
        #expect(run.stdout.contains("    kept of what was received: 6.000000 USD\n"), "\(run.stdout)")
        #expect(
            run.stdout.contains(
                "    chargeback lost: 2.000000 USD received, taken back, + 0.500000 USD delivered + 15.000000 USD fee = 17.500000 USD\n"
            ))
        // No fx.csv: the euros are said as they are, not added to dollars.
        #expect(
            run.stdout.contains(
                "    chargeback lost: 9.000000 EUR received, taken back, + 0.500000 USD delivered + 15.000000 USD fee (no rate for EUR on that day to add them)\n"
            ))
    }
}
