import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// `play/` read through `validate` as a user runs it: Google Play's files as a server and the
/// API store them, each line counted, copies dropped, and what cannot be read rejected with its
/// file, line, field, value and reason.
@Suite struct PlayInputTests {
    typealias F = AppStoreFixture
    static let t0 = F.october + 5 * F.day

    static func millis(_ offset: Int64) -> String { String(t0 + offset) }

    static func order(
        _ id: String, token: String, product: String = "gems_100", quantity: Int = 1, state: String = "PROCESSED",
        created: String = "2026-10-06T00:00:00Z", lastEvent: String? = nil, extra: [String: Any] = [:]
    ) -> [String: Any] {
        var json: [String: Any] = [
            "orderId": id, "purchaseToken": token, "state": state, "createTime": created,
            "total": ["currencyCode": "USD", "units": "4", "nanos": 990_000_000],
            "developerRevenueInBuyerCurrency": ["currencyCode": "USD", "units": "3", "nanos": 490_000_000],
            "lineItems": [["productId": product, "oneTimePurchaseDetails": ["quantity": quantity]]],
        ]
        if let lastEvent { json["lastEventTime"] = lastEvent }
        for (key, value) in extra { json[key] = value }
        return json
    }

    /// The Pub/Sub push body a server receives for `notification`.
    static func pushed(_ notification: [String: Any], id: String) -> String {
        let data = Data(F.json(notification).utf8).base64EncodedString()
        return F.json(["message": ["data": data, "messageId": id], "subscription": "projects/p/subscriptions/s"])
    }

    /// A data folder with an empty App Store part and `files` under `play/`.
    static func data(_ files: [String: [String]], label: String = #function) throws -> String {
        let root = try AppStoreFixture().write(label)
        for (path, lines) in files { try TestFiles.write(lines.joined(separator: "\n") + "\n", to: root + "/play/" + path) }
        return root
    }

    @Test func everyFolderIsReadCopiesDroppedAndBadLinesRejectedWithWhereAndWhy() throws {
        let purchase: [String: Any] = [
            "version": "1.0", "notificationType": 1, "purchaseToken": "tok-a", "sku": "gems_100",
        ]
        let bought: [String: Any] = [
            "version": "1.0", "packageName": "com.example.app", "eventTimeMillis": Self.millis(0),
            "oneTimeProductNotification": purchase,
        ]
        let notifications = [
            Self.pushed(bought, id: "m-1"),
            // The same notification kept again as decoded: one notification.
            F.json(bought),
            F.json([
                "version": "1.0", "eventTimeMillis": Self.millis(F.day),
                "voidedPurchaseNotification": ["purchaseToken": "tok-b", "orderId": "GPA.2", "productType": 2, "refundType": 2],
            ]),
            F.json([
                "version": "1.0", "eventTimeMillis": Self.millis(2 * F.day),
                "pendingRefundReviewNotification": [
                    "purchaseToken": "tok-c", "orderId": "GPA.3", "pendingRefundToken": "prt-3",
                ],
            ]),
            F.json(["message": ["data": "not*base64", "messageId": "m-5"]]),
            F.json([
                "version": "1.0", "eventTimeMillis": Self.millis(3 * F.day),
                "pendingRefundReviewNotification": ["purchaseToken": "tok-c", "orderId": "GPA.3"],
            ]),
        ]
        let subscription = Self.order(
            "GPA.5", token: "tok-f",
            extra: [
                "lineItems": [
                    [
                        "productId": "pro_monthly",
                        "subscriptionDetails": [
                            "servicePeriodStartTime": "2026-10-06T00:00:00Z", "servicePeriodEndTime": "2026-11-06T00:00:00Z",
                        ],
                    ]
                ]
            ])
        let orders = [
            F.json(["orders": [Self.order("GPA.1", token: "tok-a"), Self.order("GPA.2", token: "tok-b", quantity: 3)]]),
            // GPA.1 again, later: the refunded copy is the one kept.
            F.json(Self.order("GPA.1", token: "tok-a", state: "REFUNDED", lastEvent: "2026-10-08T00:00:00Z")),
            F.json(Self.order("GPA.9", token: "tok-z", extra: ["createTime": NSNull()])),
            F.json([
                "orders": [
                    subscription, Self.order("GPA.6", token: "tok-g", extra: ["total": ["currencyCode": "US", "units": "4"]]),
                ]
            ]),
        ]
        let chargeback: [String: Any] = [
            "purchaseToken": "tok-d", "orderId": "GPA.4", "purchaseTimeMillis": Self.millis(0),
            "voidedTimeMillis": Self.millis(4 * F.day), "voidedSource": 2, "voidedReason": 7,
        ]
        let voided = [
            F.json([
                "voidedPurchases": [
                    [
                        "purchaseToken": "tok-b", "orderId": "GPA.2", "voidedTimeMillis": Self.millis(F.day),
                        "voidedSource": 0, "voidedReason": 1, "voidedQuantity": 1,
                    ],
                    chargeback,
                ],
                "tokenPagination": ["nextPageToken": "next"],
            ]),
            F.json(chargeback),
            F.json(["purchaseToken": "tok-e", "voidedTimeMillis": Self.millis(0), "voidedQuantity": 0]),
        ]
        let purchases = [
            F.json([
                "kind": "androidpublisher#productPurchaseV2", "purchaseToken": "tok-a", "obfuscatedExternalAccountId": "acct-1",
                "orderId": "GPA.1", "productLineItem": [["productId": "gems_100"]],
                "purchaseStateContext": ["purchaseState": "PURCHASED"], "purchaseCompletionTime": "2026-10-06T00:00:00Z",
            ]),
            // No token on the line: matched to its order by order id.
            F.json([
                "kind": "androidpublisher#productPurchaseV2", "obfuscatedExternalAccountId": "acct-2", "orderId": "GPA.2",
                "productLineItem": [["productId": "gems_100"]],
            ]),
            F.json(["kind": "androidpublisher#productPurchase", "orderId": "GPA.7"]),
        ]
        let data = try Self.data([
            "notifications/rtdn.jsonl": notifications, "orders/orders.jsonl": orders, "voided/voided.jsonl": voided,
            "purchases/purchases.jsonl": purchases,
        ])
        let rejectsFile = try TestFiles.temporaryDirectory("rejects") + "/rejects.csv"
        let run = try runTool(["validate", "--data", data, "--rejects", rejectsFile, "--max-rejects", "10"])
        #expect(run.status == 0, "\(run.stderr)")
        let out = run.stdout
        #expect(out.contains("Google Play data:"))
        #expect(out.contains(Self.row("lines read, by folder", "notifications 6, voided 3, orders 4, purchases 3")))
        #expect(
            out.contains(
                Self.row(
                    "notifications by kind (copies too)",
                    "oneTimeProductNotification 2, voidedPurchaseNotification 1, pendingRefundReviewNotification 1")))
        // The decoded copy of the push body, GPA.1's earlier copy and the chargeback read twice.
        #expect(out.contains(Self.row("copies dropped (read before)", "3")))
        #expect(out.contains(Self.row("orders: one-time / subscription", "2 / 1")))
        #expect(out.contains(Self.row("orders whose purchase names an account", "2")))
        #expect(out.contains(Self.row("voided: all / chargebacks / partial", "2 / 1 / 1")))
        #expect(out.contains(Self.row("purchases: one-time / subscription", "2 / 0")))
        #expect(out.contains("1 Play order has no account"), "GPA.5's purchase is not in play/purchases/")
        #expect(out.contains("1 voided purchase names an order not in play/orders/"), "GPA.4")
        #expect(out.contains("1 pending refund review names an order not in play/orders/"), "GPA.3")
        #expect(out.contains("rejected: 6 rows in 6 rejects"), "\(out)")

        let rejects = try csvRows(rejectsFile).map {
            [$0["file"] ?? "", $0["line"] ?? "", $0["field"] ?? "", $0["value"] ?? "", $0["reason"] ?? ""]
        }
        let play = data + "/play/"
        #expect(rejects.contains([play + "notifications/rtdn.jsonl", "5", "message.data", "not*base64", "not base64"]))
        #expect(
            rejects.contains([
                play + "notifications/rtdn.jsonl", "6", "pendingRefundReviewNotification.pendingRefundToken", "",
                "a pending refund review names its pendingRefundToken",
            ]))
        #expect(
            rejects.contains([play + "orders/orders.jsonl", "3", "createTime", "null", "the time the order was made is required"])
        )
        #expect(
            rejects.contains([
                play + "orders/orders.jsonl", "4", "orders[1].total.currencyCode", "US",
                "a three-letter currency code is required",
            ]))
        #expect(
            rejects.contains([play + "voided/voided.jsonl", "3", "voidedQuantity", "0", "a voided quantity is 1 to 1,000,000"]))
        #expect(
            rejects.contains([
                play + "purchases/purchases.jsonl", "3", "kind", "androidpublisher#productPurchase",
                "not a purchase this version reads (productPurchaseV2, subscriptionPurchaseV2)",
            ]))
        #expect(rejects.count == 6)
    }

    @Test func whatAReaderMustKnowIsSaidOfTheLineItIsIn() throws {
        let noTime: [String: Any] = ["version": "1.0", "testNotification": ["version": "1.0"]]
        let otherApp: [String: Any] = [
            "version": "1.0", "packageName": "com.other.app", "eventTimeMillis": Self.millis(0),
            "oneTimeProductNotification": ["notificationType": 1, "purchaseToken": "tok-x", "sku": "gems"],
        ]
        let ours: [String: Any] = [
            "version": "1.0", "packageName": "com.example.app", "eventTimeMillis": Self.millis(0),
            "oneTimeProductNotification": ["notificationType": 1, "purchaseToken": "tok-a", "sku": "gems"],
        ]
        let pushedWithoutTime = Self.pushed(
            ["version": "1.0", "oneTimeProductNotification": ["purchaseToken": "tok-a"], "eventTimeMillis": "soon"], id: "m-9")
        func purchase(_ account: String) -> String {
            F.json([
                "kind": "androidpublisher#productPurchaseV2", "purchaseToken": "tok-a", "obfuscatedExternalAccountId": account,
                "productLineItem": [["productId": "gems"]],
            ])
        }
        let data = try Self.data([
            "notifications/n.jsonl": [F.json(noTime), F.json(ours), F.json(otherApp), pushedWithoutTime],
            "purchases/p.jsonl": [purchase("acct-1"), purchase("acct-2")],
            "voided/v.jsonl": [F.json(["orderId": "GPA.1", "voidedTimeMillis": Self.millis(0)])],
        ])
        let rejectsFile = try TestFiles.temporaryDirectory("rejects") + "/rejects.csv"
        let run = try runTool(["validate", "--data", data, "--rejects", rejectsFile, "--max-rejects", "10"])
        #expect(run.status == 0, "\(run.stderr)")
        let rejects = try csvRows(rejectsFile).map {
            [$0["line"] ?? "", $0["field"] ?? "", $0["value"] ?? "", $0["reason"] ?? ""]
        }
        #expect(rejects.contains(["1", "eventTimeMillis", "", "the time of the event is required"]), "\(rejects)")
        // The value is the decoded notification's, not the base64 that carries it.
        #expect(rejects.contains { $0[0] == "4" && $0[1] == "message.data.eventTimeMillis" && $0[2] == "soon" }, "\(rejects)")
        #expect(rejects.contains(["1", "purchaseToken", "", "a purchase token is required"]), "\(rejects)")
        #expect(run.stdout.contains("play/notifications/ names 2 apps (com.example.app 1, com.other.app 1)"), "\(run.stdout)")
        #expect(
            run.stdout.contains(
                "purchase token tok-a is acct-1's and also acct-2's (\(data)/play/purchases/p.jsonl:2); the first is kept"),
            "\(run.stdout)")
    }

    @Test func aLineThatIsNotJSONAsWrittenIsRejectedNotGuessedAt() throws {
        let time = Self.millis(0)
        let voided = [
            #"{"voidedPurchases":[{"purchaseToken":"a","voidedTimeMillis":"\#(time)"}],"voidedPurchases":[]}"#,
            #"{"purchaseToken":"b","voidedTimeMillis":"\#(time)","voidedQuantity":1.9}"#,
            #"{"purchaseToken":"c","voidedTimeMillis":"\#(time)","voidedSource":nul}"#,
            #"{"purchaseToken":"d","voidedTimeMillis":"x\u001b[2J\nforged: error"}"#,
        ]
        let data = try Self.data(["voided/v.jsonl": voided])
        // Two tokens whose bad bytes would both read as U+FFFD.
        var bytes =
            Data(#"{"purchaseToken":"tok"#.utf8) + Data([0xFF]) + Data(#"","voidedTimeMillis":"\#(time)"}"#.utf8) + Data([0x0A])
        bytes +=
            Data(#"{"purchaseToken":"tok"#.utf8) + Data([0xFE]) + Data(#"","voidedTimeMillis":"\#(time)"}"#.utf8) + Data([0x0A])
        try bytes.write(to: URL(fileURLWithPath: data + "/play/voided/w.jsonl"))
        // A future notification field beside the notification object is ignored, not taken for a second object.
        let future: [String: Any] = [
            "version": "1.0", "eventTimeMillis": time, "futureMetadata": ["region": "EU"],
            "subscriptionNotification": ["notificationType": 2, "purchaseToken": "tok-s"],
        ]
        try TestFiles.write(F.json(future) + "\n", to: data + "/play/notifications/n.jsonl")
        try FileManager.default.createDirectory(atPath: data + "/play/orders", withIntermediateDirectories: true)
        try Data([0x1F, 0x8B, 0x08, 0x00, 0x00]).write(to: URL(fileURLWithPath: data + "/play/orders/cut.jsonl.gz"))
        let rejectsFile = try TestFiles.temporaryDirectory("rejects") + "/rejects.csv"
        let run = try runTool(["validate", "--data", data, "--rejects", rejectsFile, "--max-rejects", "20"])
        #expect(run.status == 0, "\(run.stderr)")
        let rejects = try csvRows(rejectsFile).map {
            [$0["file"] ?? "", $0["line"] ?? "", $0["field"] ?? "", $0["reason"] ?? ""]
        }
        let v = data + "/play/voided/v.jsonl"
        #expect(rejects.contains([v, "1", "voidedPurchases", "a key given twice in one object"]), "\(rejects)")
        #expect(rejects.contains([v, "2", "voidedQuantity", "not a whole number"]))
        #expect(rejects.contains([v, "3", "voidedSource", "not a JSON value (true, false and null are spelled out)"]))
        #expect(rejects.contains { $0[0] == v && $0[1] == "4" && $0[2] == "voidedTimeMillis" })
        let w = data + "/play/voided/w.jsonl"
        #expect(
            rejects.contains([w, "1", "", "not UTF-8: Google's JSON is"])
                && rejects.contains([w, "2", "", "not UTF-8: Google's JSON is"]))
        #expect(
            rejects.contains {
                $0[0] == data + "/play/orders/cut.jsonl.gz" && $0[1] == "0" && $0[3].hasSuffix("the file is refused whole")
            })
        #expect(rejects.count == 7)
        // What a value holds never moves the terminal's cursor or starts a line of its own.
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\nforged"), "\(run.stderr)")
        #expect(
            run.stdout.contains(Self.row("notifications by kind (copies too)", "subscriptionNotification 1")), "\(run.stdout)")
    }

    @Test func aRefundReviewStillOpenIsSaidWithWhenItCloses() throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        func review(_ order: String, at: Int64) -> String {
            F.json([
                "version": "1.0", "eventTimeMillis": String(at),
                "pendingRefundReviewNotification": [
                    "purchaseToken": "tok-" + order, "orderId": order, "pendingRefundToken": "prt-" + order,
                ],
            ])
        }
        let hour = F.hour
        let data = try Self.data([
            "notifications/n.jsonl": [
                review("GPA.OLD", at: now - 30 * hour), review("GPA.B", at: now - 2 * hour), review("GPA.A", at: now - 5 * hour),
            ]
        ])
        let run = try runTool(["validate", "--data", data])
        #expect(run.status == 0, "\(run.stderr)")
        // GPA.OLD's 24 hours are over; GPA.A's end first, 19 hours from now.
        let closes = Timestamp(milliseconds: now - 5 * hour + 24 * hour)
        #expect(
            run.stdout.contains(
                "2 Google refund reviews are open now (GPA.A, GPA.B), the first until \(closes): answer them with respond --store play"
            ),
            "\(run.stdout)")
    }

    @Test func anythingElseUnderPlayIsRefusedAndSaidWhereItBelongs() throws {
        let data = try Self.data([
            "voided/v.jsonl": [], "stray.jsonl": ["{}"], "orders/notes.txt": ["x"], "purchases": ["not a folder"],
        ])
        let rejectsFile = try TestFiles.temporaryDirectory("rejects") + "/rejects.csv"
        let run = try runTool(["validate", "--data", data, "--rejects", rejectsFile, "--max-rejects", "10"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("rejected: 3 rows in 3 rejects"), "\(run.stdout)")
        let rows = try csvRows(rejectsFile)
        #expect(
            rows.contains {
                $0["file"] == data + "/play/stray.jsonl" && ($0["reason"] ?? "").hasPrefix("play/ holds only the folders")
            })
        #expect(rows.contains { $0["file"] == data + "/play/orders/notes.txt" })
        // A folder of play/ that is a file is refused once, as not a folder.
        #expect(rows.filter { $0["file"] == data + "/play/purchases" }.map { $0["reason"] ?? "" }.count == 1)
        #expect(rows.contains { $0["file"] == data + "/play/purchases" && ($0["reason"] ?? "").hasPrefix("not a folder") })
        #expect(run.stdout.contains(Self.row("lines read, by folder", "notifications 0, voided 0, orders 0, purchases 0")))
    }

    @Test func aFileInUTF16IsRefusedWholeWithEachOfItsLines() throws {
        let data = try Self.data([:])
        let text = F.json(["purchaseToken": "tok", "voidedTimeMillis": Self.millis(0)]) + "\n"
        var bytes = Data([0xFF, 0xFE])
        bytes.append(text.data(using: .utf16LittleEndian) ?? Data())
        bytes.append(bytes.suffix(from: 2))
        try FileManager.default.createDirectory(atPath: data + "/play/voided", withIntermediateDirectories: true)
        try bytes.write(to: URL(fileURLWithPath: data + "/play/voided/v.jsonl"))
        let run = try runTool(["validate", "--data", data, "--max-rejects", "10"])
        #expect(run.stdout.contains("refused whole: \(data)/play/voided/v.jsonl"), "\(run.stdout)")
        #expect(run.stdout.contains(Self.row("voided: all / chargebacks / partial", "0 / 0 / 0")))
    }

    @Test func aReportReadsPlayFilesAndCountsEachFolder() throws {
        let data = try Self.data(["voided/v.jsonl": [F.json(["purchaseToken": "tok", "voidedTimeMillis": Self.millis(0)])]])
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--allow-empty"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("play/"), "nothing left unread to warn of: \(run.stderr)")
        #expect(run.stdout.contains("play/voided 1 of 1 records; everything read was counted\n"), "\(run.stdout)")
        let runRecord = try TestFiles.read(out + "/2026-10/run.json")
        #expect(!runRecord.contains("not_read"), "\(runRecord)")
        #expect(runRecord.contains("notifications/n.jsonl"))
        #expect(runRecord.contains("\"path\": \"play/voided/v.jsonl\""), "a file the report read is among its inputs")
        // A void of an order no account holds is read and counted, and changes no figure.
        #expect(try TestFiles.read(out + "/2026-10/chargebacks.csv").split(separator: "\n").count == 1)
    }

    static func row(_ label: String, _ value: String) -> String {
        "  " + label + String(repeating: " ", count: max(2, 44 - label.count)) + value
    }
}
