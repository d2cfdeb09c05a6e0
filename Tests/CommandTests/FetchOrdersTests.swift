import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// `fetch orders` against the stub of Google's API: the orders play/ names and does not hold,
/// asked for in one batch, an unknown id found by halving the batch Google fails whole.
@Suite("fetch orders: what Google Play's orders say was paid")
struct FetchOrdersTests {
    typealias F = AppStoreFixture

    static func order(_ id: String, token: String) -> [String: Any] {
        PlayInputTests.order(id, token: token)
    }

    /// Voids naming GPA.1 and GPA.2, a pending refund review naming GPA.3, and GPA.2's order.
    func data(_ label: String = #function) throws -> String {
        let voided = F.json([
            "voidedPurchases": [
                ["purchaseToken": "tok-1", "orderId": "GPA.1", "voidedTimeMillis": "1790900000000", "voidedReason": 7],
                ["purchaseToken": "tok-2", "orderId": "GPA.2", "voidedTimeMillis": "1790900000000", "voidedReason": 1],
            ]
        ])
        let review = F.json([
            "version": "1.0", "eventTimeMillis": "1790900000000",
            "pendingRefundReviewNotification": ["purchaseToken": "tok-3", "orderId": "GPA.3", "pendingRefundToken": "prt-3"],
        ])
        return try PlayInputTests.data(
            [
                "voided/v.jsonl": [voided], "notifications/n.jsonl": [review],
                "orders/held.jsonl": [F.json(Self.order("GPA.2", token: "tok-2"))],
            ], label: label)
    }

    func arguments(_ data: String, _ stub: APIStub) throws -> [String] {
        [
            "fetch", "orders", "--data", data, "--package-name", "com.example.app", "--service-account", try privatePlayKey(),
            "--api-url", stub.url,
        ]
    }

    @Test func theOrdersNamedAndNotHeldAreFetchedInOneCallAndReadBack() throws {
        let stub = try APIStub(
            play: [
                "package": "com.example.app",
                "orders": ["GPA.1": Self.order("GPA.1", token: "tok-1"), "GPA.3": Self.order("GPA.3", token: "tok-3")],
            ])
        let data = try data()
        let before = try runTool(["validate", "--data", data])
        #expect(before.stdout.contains("1 voided purchase names an order not in play/orders/"), "\(before.stdout)")
        let run = try runTool(try arguments(data, stub))
        #expect(run.status == 0, "\(run.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: data + "/play/orders").filter { $0.hasPrefix("orders-") }
        #expect(files.count == 1)
        #expect(run.stdout.contains("wrote \(data)/play/orders/\(files.first ?? ""): 2 of 2 orders in 1 calls"), "\(run.stdout)")
        let calls = stub.requests
        #expect(calls.map(\.note) == ["issued", "orders 2"])
        #expect(
            calls.last?.path == "/androidpublisher/v3/applications/com.example.app/orders:batchGet?orderIds=GPA.1&orderIds=GPA.3")
        #expect(try TestFiles.read(data + "/play/orders/" + (files.first ?? "")).split(separator: "\n").count == 1)

        let after = try runTool(["validate", "--data", data])
        #expect(after.status == 0, "\(after.stdout)")
        #expect(after.stdout.contains(PlayInputTests.row("orders: one-time / subscription", "3 / 0")), "\(after.stdout)")
        #expect(!after.stdout.contains("names an order not in play/orders/"))
        let again = try runTool(try arguments(data, stub))
        #expect(again.status == 0 && again.stdout.contains("no order to fetch"), "\(again.stdout)")
        #expect(stub.requests.count == 2, "nothing asked for the second time")
    }

    @Test func anIdGoogleDoesNotKnowIsFoundByHalvingAndTheRestKept() throws {
        let stub = try APIStub(play: ["package": "com.example.app", "orders": ["GPA.1": Self.order("GPA.1", token: "tok-1")]])
        let data = try data()
        let run = try runTool(try arguments(data, stub))
        #expect(run.status == 1)
        #expect(run.stderr.contains("Google knows no order GPA.3 for com.example.app"), "\(run.stderr)")
        #expect(stub.requests.map(\.note) == ["issued", "not found", "orders 1", "not found"])
        #expect(run.stdout.contains(": 1 of 2 orders in 3 calls"), "\(run.stdout)")
    }

    @Test func namedOrdersAndADryRun() throws {
        let stub = try APIStub(play: ["package": "com.example.app", "orders": ["GPA.7": Self.order("GPA.7", token: "tok-7")]])
        let data = try data()
        let dry = try runTool(try arguments(data, stub) + ["--order-id", "GPA.7", "--order-id", "GPA.7", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(
            dry.stdout.contains(
                "would send GET \(stub.url)/androidpublisher/v3/applications/com.example.app/orders:batchGet?orderIds=GPA.7\n"),
            "\(dry.stdout)")
        #expect(stub.requests.isEmpty)
        let run = try runTool(try arguments(data, stub) + ["--order-id", "GPA.7"])
        #expect(run.status == 0 && run.stdout.contains("1 of 1 orders in 1 calls"), "\(run.stdout)\(run.stderr)")
    }
}
