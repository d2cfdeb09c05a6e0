import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// `fetch purchases` against the stub of Google's API: each token play/ names and holds no
/// purchase of, from the API that knows it, written with the token added, an unknown one listed.
@Suite("fetch purchases: whose each Google Play purchase is")
struct FetchPurchasesTests {
    typealias F = AppStoreFixture

    @Test func theTokensNamedAreFetchedFromTheirAPIAndGiveTheOrdersTheirAccounts() throws {
        let subscriptionNotice = F.json([
            "version": "1.0", "eventTimeMillis": "1790900000000",
            "subscriptionNotification": ["notificationType": 4, "purchaseToken": "tok-s"],
        ])
        let voided = F.json([
            "purchaseToken": "tok-p", "orderId": "GPA.P", "voidedTimeMillis": "1791300000000", "voidedReason": 7,
        ])
        let held = F.json([
            "kind": "androidpublisher#productPurchaseV2", "purchaseToken": "tok-h", "obfuscatedExternalAccountId": "acct-h",
            "productLineItem": [["productId": "gems_100"]],
        ])
        let data = try PlayInputTests.data([
            "notifications/n.jsonl": [subscriptionNotice], "voided/v.jsonl": [voided],
            "orders/o.jsonl": [
                F.json(PlayInputTests.order("GPA.P", token: "tok-p")), F.json(PlayInputTests.order("GPA.O", token: "tok-o")),
                F.json(PlayInputTests.order("GPA.H", token: "tok-h")),
            ],
            "purchases/held.jsonl": [held],
        ])
        let stub = try APIStub(
            play: [
                "package": "com.example.app",
                "purchases": [
                    "tok-p": [
                        "kind": "androidpublisher#productPurchaseV2", "obfuscatedExternalAccountId": "acct-p",
                        "productLineItem": [["productId": "gems_100"]], "orderId": "GPA.P",
                    ],
                    "tok-s": [
                        "kind": "androidpublisher#subscriptionPurchaseV2", "lineItems": [["productId": "pro_monthly"]],
                        "externalAccountIdentifiers": ["obfuscatedExternalAccountId": "acct-s"],
                    ],
                ],
            ])
        let before = try runTool(["validate", "--data", data])
        #expect(before.stdout.contains(PlayInputTests.row("orders whose purchase names an account", "1")), "\(before.stdout)")
        let run = try runTool([
            "fetch", "purchases", "--data", data, "--package-name", "com.example.app", "--service-account", try privatePlayKey(),
            "--api-url", stub.url,
        ])
        #expect(run.status == 1, "tok-o is unknown: \(run.stderr)")
        #expect(run.stderr.contains("Google knows no purchase by token tok-o for com.example.app"), "\(run.stderr)")
        let prefix = "/androidpublisher/v3/applications/com.example.app/purchases/"
        #expect(
            stub.requests.dropFirst().map(\.path) == [
                prefix + "productsv2/tokens/tok-o", prefix + "productsv2/tokens/tok-p", prefix + "subscriptionsv2/tokens/tok-s",
            ], "in token order, each from its API; tok-h is held")
        let files = try FileManager.default.contentsOfDirectory(atPath: data + "/play/purchases").filter {
            $0.hasPrefix("purchases-")
        }
        #expect(files.count == 1)
        let lines = try TestFiles.read(data + "/play/purchases/" + (files.first ?? "")).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"purchaseToken\":\"tok-") }, "the token it was asked by, first")
        #expect(run.stdout.contains(": 2 of 3 purchases"), "\(run.stdout)")

        let after = try runTool(["validate", "--data", data, "--max-rejects", "0"])
        #expect(after.status == 0, "\(after.stdout)")
        #expect(after.stdout.contains(PlayInputTests.row("orders whose purchase names an account", "2")), "GPA.P now has acct-p")
        #expect(after.stdout.contains(PlayInputTests.row("purchases: one-time / subscription", "2 / 1")))
    }
}
