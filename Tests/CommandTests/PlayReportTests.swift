import Foundation
import Testing

@testable import TestSupport

/// A report over Google Play orders held in the same ledger as Apple's transactions
/// (docs/domain.md rule 16): every figure worked out by hand from the rows below.
@Suite struct PlayReportTests {
    typealias F = AppStoreFixture
    typealias E = PlayExplainTests

    /// Google's `Money` of `amount` ("4.99": 4 units and 990,000,000 nanos).
    static func money(_ amount: String, currency: String = "USD") -> [String: Any] {
        let parts = amount.split(separator: ".").map(String.init)
        let fraction = parts.count > 1 ? parts[1] + String(repeating: "0", count: 9 - parts[1].count) : "0"
        return ["currencyCode": currency, "units": parts[0], "nanos": Int(fraction) ?? 0]
    }

    static func order(_ id: String, token: String, quantity: Int, created: Int64, total: String, revenue: String) -> [String: Any]
    {
        var json = E.order(id, token: token, quantity: quantity, created: created, revenue: revenue)
        json["total"] = money(total)
        return json
    }

    static func subscription(_ id: String, token: String, from: String, to: String, total: String, revenue: String)
        -> [String: Any]
    {
        var json = order(id, token: token, quantity: 1, created: 0, total: total, revenue: revenue)
        json["createTime"] = from
        json["lineItems"] = [
            [
                "productId": "pro_monthly",
                "subscriptionDetails": ["servicePeriodStartTime": from, "servicePeriodEndTime": to],
            ]
        ]
        return json
    }

    static func void(_ order: String, _ token: String, at: Int64, reason: Int, source: Int, quantity: Int? = nil) -> [String: Any]
    {
        var json: [String: Any] = [
            "purchaseToken": token, "orderId": order, "voidedTimeMillis": String(at), "voidedReason": reason,
            "voidedSource": source,
        ]
        if let quantity { json["voidedQuantity"] = quantity }
        return json
    }

    static func purchase(_ token: String, account: String, subscription: Bool = false) -> String {
        subscription
            ? F.json([
                "kind": "androidpublisher#subscriptionPurchaseV2", "purchaseToken": token,
                "externalAccountIdentifiers": ["obfuscatedExternalAccountId": account],
                "lineItems": [["productId": "pro_monthly"]],
            ])
            : F.json([
                "kind": "androidpublisher#productPurchaseV2", "purchaseToken": token, "obfuscatedExternalAccountId": account,
                "productLineItem": [["productId": "gems_100"]],
            ])
    }

    /// Five accounts, one rule each.
    ///
    /// - g-1 bought one unit (GPA.1, 4.00 received) on Oct 6; charged back on Oct 9 by Google.
    ///   Oct 6 and 7: 1 + 2 paid; Oct 10: 8 after the chargeback (after_refund).
    /// - g-2 bought four units (GPA.2, 20.00) on Oct 3; one refunded on Oct 5: a quarter, and the
    ///   order lasts. Oct 4 and 6: 0.50 + 1.50 paid.
    /// - g-3's month of pro_monthly (GPA.3, 9.99), Oct 1 to Nov 1, revoked whole by the
    ///   developer on Oct 20, its notification received at 06:00. Oct 10: 3 paid; Oct 25: 5 after.
    /// - g-4's month (GPA.4), Sep 15 to Oct 15, not renewed. Oct 10: 1 paid; Oct 20: 2 after expiry.
    /// - g-5 holds nothing: 100 unlinked.
    static func data(label: String = #function) throws -> String {
        var fixture = AppStoreFixture()
        let at = E.at
        for (account, day, hours, amount) in [
            ("g-1", 5, 12, "1.00"), ("g-1", 6, 12, "2.00"), ("g-1", 9, 12, "8.00"), ("g-2", 3, 12, "0.50"),
            ("g-2", 5, 12, "1.50"), ("g-3", 9, 0, "3.00"), ("g-3", 24, 12, "5.00"), ("g-4", 9, 0, "1.00"),
            ("g-4", 19, 0, "2.00"), ("g-5", 2, 0, "100.00"),
        ] {
            fixture.cost(account, at: at(Int64(day), Int64(hours)), amount)
        }
        let orders = [
            order("GPA.1", token: "t-1", quantity: 1, created: 5, total: "4.99", revenue: "4"),
            order("GPA.2", token: "t-2", quantity: 4, created: 2, total: "20", revenue: "17"),
            subscription(
                "GPA.3", token: "t-3", from: "2026-10-01T00:00:00Z", to: "2026-11-01T00:00:00Z", total: "9.99", revenue: "8"),
            subscription(
                "GPA.4", token: "t-4", from: "2026-09-15T00:00:00Z", to: "2026-10-15T00:00:00Z", total: "9.99", revenue: "8"),
        ].map(F.json)
        let voided = [
            F.json([
                "voidedPurchases": [
                    void("GPA.1", "t-1", at: at(8, 0), reason: 7, source: 2),
                    void("GPA.2", "t-2", at: at(4, 0), reason: 1, source: 0, quantity: 1),
                    void("GPA.3", "t-3", at: at(19, 0), reason: 2, source: 1),
                ]
            ])
        ]
        let notifications = [
            F.json([
                "version": "1.0", "packageName": "com.example.app", "eventTimeMillis": String(at(19, 6)),
                "voidedPurchaseNotification": [
                    "purchaseToken": "t-3", "orderId": "GPA.3", "productType": 1, "refundType": 1,
                ],
            ])
        ]
        let purchases = [
            purchase("t-1", account: "g-1"), purchase("t-2", account: "g-2"),
            purchase("t-3", account: "g-3", subscription: true), purchase("t-4", account: "g-4", subscription: true),
        ]
        let root = try fixture.write(label)
        for (path, lines) in [
            "orders/o.jsonl": orders, "voided/v.jsonl": voided, "purchases/p.jsonl": purchases,
            "notifications/n.jsonl": notifications,
        ] {
            try TestFiles.write(lines.joined(separator: "\n") + "\n", to: root + "/play/" + path)
        }
        return root
    }

    static func rows(_ path: String) throws -> [[String: String]] {
        let lines = try TestFiles.read(path).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            Dictionary(
                uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    @Test func playOrdersAreClassifiedRefundedChargedBackAndSplitByStore() throws {
        let data = try Self.data()
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--chargeback-fee", "15"])
        #expect(run.status == 0, "\(run.stderr)")
        let folder = out + "/2026-10/"

        // Paid 1 + 2 + 0.5 + 1.5 + 3 + 1 = 9; after a void 8 + 5 = 13; after expiry 2; unlinked 100.
        let totals = try #require(try Self.rows(folder + "totals.csv").first)
        #expect(totals["cost_total"] == "124.000000")
        #expect(totals["cost_paid"] == "9.000000")
        #expect(totals["cost_after_refund"] == "13.000000")
        #expect(totals["cost_after_expiry"] == "2.000000")
        #expect(totals["cost_unlinked"] == "100.000000")
        // GPA.2 in part and GPA.3 whole; the chargeback is not a refund. GPA.1, 2 and 3 were bought in October.
        #expect(totals["refunds"] == "2" && totals["refunds_prorated"] == "1" && totals["paid_transactions"] == "3")
        #expect(totals["refund_rate"] == "0.6667")
        // 20 / 4 for GPA.2 and 9.99 for GPA.3.
        #expect(totals["refunded_amount"] == "14.990000")
        // GPA.2: 2.00 served while it gave access; GPA.3: 3.00 and 5.00 after.
        #expect(totals["refund_sunk_cost"] == "10.000000")
        // 4.00 received + 15.00 fee + 3.00 delivered.
        #expect(totals["chargebacks"] == "1" && totals["chargebacks_lost"] == "22.000000")

        let stores = try Self.rows(folder + "store_totals.csv")
        #expect(stores.map { $0["store"] ?? "?" } == ["app_store", "google_play", ""])
        #expect(stores.map { $0["cost_total"] ?? "?" } == ["0.000000", "24.000000", "100.000000"])
        #expect(stores[1]["refunds"] == "2" && stores[1]["chargebacks_lost"] == "22.000000")
        #expect(stores[1]["leaked_cost"] == "13.000000" && stores[0]["refunds"] == "0")

        let refunds = try Self.rows(folder + "refunds.csv")
        #expect(refunds.map { $0["transaction_id"] ?? "" } == ["GPA.2", "GPA.3"])
        #expect(refunds[0]["revocation_kind"] == "refund_prorated" && refunds[0]["revocation_percentage"] == "25000")
        #expect(refunds[0]["revocation_reason"] == "remorse" && refunds[0]["refunded_amount"] == "5.000000")
        #expect(refunds[0]["price"] == "20.000000" && refunds[0]["sunk_cost"] == "2.000000")
        #expect(refunds[1]["revocation_kind"] == "refund_full" && refunds[1]["revocation_reason"] == "not_received")
        #expect(refunds[1]["cost_purchaser"] == "3.000000" && refunds[1]["cost_after_revocation"] == "5.000000")
        #expect(refunds.allSatisfy { $0["store"] == "google_play" && $0["family_members"] == "0" })

        let chargebacks = try Self.rows(folder + "chargebacks.csv")
        #expect(chargebacks.count == 1)
        let chargeback = try #require(chargebacks.first)
        #expect(chargeback["order_id"] == "GPA.1" && chargeback["account_id"] == "g-1")
        #expect(chargeback["chargeback_date"] == "2026-10-09T00:00:00.000Z" && chargeback["void_source"] == "google")
        #expect(chargeback["received"] == "4.000000" && chargeback["received_converted"] == "4.000000")
        #expect(chargeback["chargeback_fee"] == "15.000000" && chargeback["delivery_cost"] == "3.000000")
        #expect(chargeback["cost_after_chargeback"] == "8.000000" && chargeback["lost"] == "22.000000")

        // GPA.1's leak from the chargeback itself; GPA.3's from its notification at 06:00; GPA.4 expired.
        let leaks = try Self.rows(folder + "leaks.csv")
        #expect(leaks.map { $0["transaction_id"] ?? "" } == ["GPA.1", "GPA.3", "GPA.4"])
        #expect(leaks[0]["notified_at"] == "2026-10-09T00:00:00.000Z" && leaks[0]["cost_beyond_grace"] == "8.000000")
        #expect(leaks[1]["access_end"] == "2026-10-20T00:00:00.000Z" && leaks[1]["notified_at"] == "2026-10-20T06:00:00.000Z")
        #expect(leaks[2]["end_kind"] == "expiry" && leaks[2]["access_end"] == "2026-10-15T00:00:00.000Z")
        #expect(leaks.allSatisfy { $0["store"] == "google_play" })
        // GPA.3's 5.00 on Oct 25, within the last 7 days: still leaking, 5.00 per 30 days.
        let losses = try Self.rows(folder + "subscription_loss.csv")
        #expect(losses.count == 1 && losses[0]["original_transaction_id"] == "GPA.3")
        #expect(losses[0]["still_leaking"] == "true" && losses[0]["run_rate_30d"] == "5.000000")

        let summary = try Self.rows(folder + "summary.csv")
        #expect(
            summary.map { "\($0["product_id"] ?? "?")/\($0["store"] ?? "?")" } == [
                "/", "gems_100/google_play", "pro_monthly/google_play",
            ])

        // Every folder of play/ counted, and listed among the inputs.
        #expect(run.stdout.contains("play/orders 4 of 4 records, play/purchases 4 of 4 records"), "\(run.stdout)")
        #expect(
            run.stdout.contains("  chargebacks lost     22.000000 USD, 1 chargeback (a bank fee of 15.000000 USD each)\n"),
            "\(run.stdout)")
        let record = try TestFiles.read(folder + "run.json")
        #expect(record.contains("\"path\": \"play/orders/o.jsonl\"") && record.contains("\"chargebacks\": 1"), "\(record)")
        #expect(!record.contains("not_read"))
        let page = try TestFiles.read(folder + "report.html")
        #expect(page.contains("<h2>By store</h2>") && page.contains("<h3>Google Play chargebacks</h3>"))
        #expect(page.contains("gems_100 (Google Play)"))
    }

    /// The App Store's figures of a folder are the same with or without Google Play's orders
    /// beside them: each store's rows and totals are its own.
    @Test func eachStoreKeepsItsOwnFigures() throws {
        let apple = try TestFiles.temporaryDirectory("apple")
        let both = try TestFiles.temporaryDirectory("both")
        for (folder, stores) in [(apple, "apple"), (both, "apple,play")] {
            let made = try runTool(["generate", "--out", folder + "/data", "--accounts", "80", "--seed", "7", "--stores", stores])
            #expect(made.status == 0, "\(made.stderr)")
            let run = try runTool([
                "report", "--data", folder + "/data", "--month", "2026-10", "--out", folder + "/out", "--trust-root",
                folder + "/data/test-root.der", "--quiet",
            ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        func appStoreRows(_ root: String, _ file: String) throws -> [String] {
            try TestFiles.read(root + "/out/2026-10/" + file).split(separator: "\n").map(String.init).filter {
                !$0.hasSuffix(",google_play")
            }
        }
        for file in ["refunds.csv", "leaks.csv", "subscription_loss.csv", "family_links.csv", "family_spend.csv"] {
            #expect(try appStoreRows(apple, file) == appStoreRows(both, file), "\(file)")
        }
        let withPlay = try Self.rows(both + "/out/2026-10/store_totals.csv")
        let alone = try Self.rows(apple + "/out/2026-10/store_totals.csv")
        #expect(withPlay[0] == alone[0], "the App Store's row")
        #expect(alone[1]["cost_total"] == "0.000000" && alone[1]["paid_transactions"] == "0")
        #expect(withPlay[1]["cost_total"] != "0.000000" && withPlay[1]["paid_transactions"] != "0")
    }

    /// What a hostile or careless server could write into play/ is refused with where and why,
    /// or left out and said, never believed.
    @Test func ordersAndVoidsThatCannotBeAreRefusedOrLeftOutWithWhy() throws {
        let data = try Self.data()
        let at = E.at
        func append(_ lines: [String], to file: String) throws {
            let path = data + "/play/" + file
            try TestFiles.write(try TestFiles.read(path) + lines.joined(separator: "\n") + "\n", to: path)
        }
        var control = Self.order("GPA.\u{1B}[2J", token: "t-9", quantity: 1, created: 3, total: "1", revenue: "1")
        control["orderId"] = "GPA.\u{1B}[2J"
        let huge = Self.order("GPA.6", token: "t-6", quantity: 2_000_000, created: 3, total: "1", revenue: "1")
        let tester = Self.order("GPA.7", token: "t-7", quantity: 1, created: 3, total: "4.99", revenue: "4")
        let first = Self.subscription(
            "GPA.8", token: "t-8", from: "2026-10-01T00:00:00Z", to: "2026-10-16T00:00:00Z", total: "5", revenue: "4")
        let renewal = Self.subscription(
            "GPA.8..1", token: "t-8", from: "2026-10-16T00:00:00Z", to: "2026-11-16T00:00:00Z", total: "5", revenue: "4")
        try append([control, huge, tester, first, renewal].map(F.json), to: "orders/o.jsonl")
        var test = F.json([
            "kind": "androidpublisher#productPurchaseV2", "purchaseToken": "t-7", "obfuscatedExternalAccountId": "g-7",
            "productLineItem": [["productId": "gems_100"]], "testPurchase": [String: Any](),
        ])
        test += "\n" + Self.purchase("t-8", account: "g-8", subscription: true)
        try append([test], to: "purchases/p.jsonl")
        try append(
            [
                // GPA.1 was charged back whole on Oct 9: nothing is left to void on Oct 10.
                F.json(Self.void("GPA.1", "t-1", at: at(9, 0), reason: 1, source: 0)),
                // GPA.2 was made on Oct 3: it cannot have been voided on Oct 2.
                F.json(Self.void("GPA.2", "t-2", at: at(1, 0), reason: 1, source: 0)),
                // No order named: the token's order of Oct 10 is GPA.8, not its renewal of Oct 16.
                F.json(["purchaseToken": "t-8", "voidedTimeMillis": String(at(9, 0)), "voidedReason": 1, "voidedSource": 0]),
            ], to: "voided/v.jsonl")
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--max-rejects", "10"])
        #expect(run.status == 0, "\(run.stderr)")
        // Read as lines: a reason holds commas (quoted).
        let rejects = try TestFiles.read(out + "/2026-10/rejects.csv").split(separator: "\n")
        func rejected(_ field: String, _ reason: String) -> Bool {
            rejects.contains { $0.contains("," + field + ",") && $0.contains(reason) }
        }
        #expect(rejected("orderId", "an id holds a control character (U+1B)"), "\(rejects)")
        #expect(rejected("lineItems[0].oneTimePurchaseDetails.quantity", "a quantity is 1 to 1,000,000"), "\(rejects)")
        #expect(rejected("voidedTimeMillis", "order GPA.1 had no unit left: voided already"), "\(rejects)")
        #expect(rejected("voidedTimeMillis", "voided before its order GPA.2 was made (2026-10-03T00:00:00.000Z)"), "\(rejects)")
        #expect(!(try TestFiles.read(out + "/2026-10/refunds.csv")).contains("\u{1B}"))
        // The tester's order is left out, and said; its account's rows are then unlinked.
        #expect(run.stderr.contains("1 Google Play order is a license tester's (testPurchase)"), "\(run.stderr)")
        let refunds = try Self.rows(out + "/2026-10/refunds.csv").map { $0["transaction_id"] ?? "" }
        #expect(refunds == ["GPA.2", "GPA.8", "GPA.3"], "GPA.2's own refund of Oct 5 stands; GPA.8 alone: \(refunds)")
        // A fee of more decimals than a report writes would break its sums: a usage error.
        let fee = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--chargeback-fee", "0.0000005"])
        #expect(fee.status == 2 && fee.stderr.contains("at most 6 decimals"), "\(fee.stderr)")
    }
}
