import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

@Suite("App Store ingestion")
struct AppStoreDecodingTests {
    typealias F = AppStoreFixture
    let t0 = AppStoreFixture.october

    @Test func v2SignedBodyDecodesEveryField() throws {
        var fixture = F()
        let transaction = F.transaction(
            "1001", original: "1000", product: "pro.monthly", type: "Auto-Renewable Subscription", purchase: t0,
            expires: t0 + 30 * F.day, signed: t0 + 5 * F.day,
            extra: [
                "revocationDate": t0 + 5 * F.day, "revocationReason": 1, "revocationType": "REFUND_PRORATED",
                "revocationPercentage": 25000, "appAccountToken": "tok-1", "webOrderLineItemId": "w1", "appTransactionId": "a1",
                "subscriptionGroupIdentifier": "g1", "someFieldAppleAddsNextYear": ["x": 1],
            ])
        fixture.notify(
            "REFUND", uuid: "u-1", signed: t0 + 5 * F.day + 1000, transaction: transaction, received: t0 + 5 * F.day + 4000)
        let (_, load, rejects) = try buildLedger(try fixture.write())
        #expect(rejects.count == 0)
        let notification = try #require(load.input.notifications.first)
        #expect(notification.type == .refund)
        #expect(notification.uuid == "u-1")
        #expect(notification.noticeTime.milliseconds == t0 + 5 * F.day + 4000)
        #expect(notification.transaction?.transactionID == "1001")
        #expect(notification.transaction?.revocationDate != nil)
        let record = try #require(load.input.transactions.first { $0.record.transactionID == "1001" }?.record)
        #expect(record.transactionID == "1001")
        #expect(record.originalTransactionID == "1000")
        #expect(record.type == .autoRenewable)
        #expect(record.expiresDate?.milliseconds == t0 + 30 * F.day)
        #expect(record.revocationType == .refundProrated)
        #expect(record.revocationPercentage == 25000)
        #expect(record.revocationReason == .appIssue)
        #expect(record.appAccountToken == "tok-1")
        #expect(record.price == 9990)
    }

    @Test func decodedPayloadV1AndHistoryFormsAllRead() throws {
        var fixture = F()
        // An already decoded V2 payload with a decoded transaction object and fractional (Xcode) dates.
        let decoded: [String: Any] = [
            "notificationType": "ONE_TIME_CHARGE", "notificationUUID": "u-dec", "signedDate": Double(t0) + 0.75,
            "data": ["environment": "Production", "signedTransactionInfo": F.transaction("2001", purchase: t0, signed: t0 + 10)],
        ]
        fixture.notificationLines.append(F.json(decoded))
        // A V1 CANCEL: a refund of an auto-renewable subscription, every value a string.
        let v1: [String: Any] = [
            "notification_type": "CANCEL", "environment": "PROD",
            "unified_receipt": [
                "latest_receipt_info": [
                    [
                        "transaction_id": "3001", "original_transaction_id": "3000", "product_id": "pro.monthly",
                        "purchase_date_ms": String(t0), "expires_date_ms": String(t0 + 30 * F.day),
                        "cancellation_date_ms": String(t0 + 2 * F.day), "cancellation_reason": "0",
                        "in_app_ownership_type": "PURCHASED",
                    ],
                    [
                        "transaction_id": "3000", "original_transaction_id": "3000", "product_id": "pro.monthly",
                        "purchase_date_ms": String(t0 - 30 * F.day), "expires_date_ms": String(t0),
                        "in_app_ownership_type": "PURCHASED",
                    ],
                ]
            ],
        ]
        fixture.notificationLines.append(F.json(v1))
        // History: a page, one signed transaction, and a decoded object.
        fixture.historyLines.append(
            F.json([
                "signedTransactions": [
                    F.jws(F.transaction("4001", purchase: t0, signed: t0 + 1)),
                    F.jws(F.transaction("4002", purchase: t0, signed: t0 + 2)),
                ], "hasMore": false,
            ]))
        fixture.historyLines.append(F.json(["signedTransaction": F.jws(F.transaction("4003", purchase: t0, signed: t0 + 3))]))
        fixture.historyLines.append(F.json(F.transaction("4004", purchase: Int64(t0), signed: t0 + 4)))
        let (ledger, load, rejects) = try buildLedger(try fixture.write())
        #expect(rejects.count == 0, "\(rejects.firstRejects)")
        #expect(load.input.counts.notificationsKept == 2)
        #expect(load.input.counts.v1Notifications == 1)
        #expect(load.input.notifications[0].signedDate.milliseconds == t0)
        let v1Notification = load.input.notifications[1]
        #expect(v1Notification.type == .refund)
        #expect(v1Notification.transaction?.transactionID == "3001")
        #expect(load.input.counts.historyTransactions == 4)
        #expect(ledger.transactions.map(\.id) == ["2001", "3000", "3001", "4001", "4002", "4003", "4004"])
        let cancelled = try #require(ledger.transaction("3001"))
        #expect(cancelled.end?.kind == .refundFull)
        #expect(cancelled.end?.at.milliseconds == t0 + 2 * F.day)
        #expect(cancelled.type == .autoRenewable)
    }

    @Test func csvNotificationExportIsRead() throws {
        var fixture = F()
        fixture.notify("ONE_TIME_CHARGE", uuid: "u-1", signed: t0, transaction: F.transaction("1", purchase: t0, signed: t0))
        let root = try fixture.write()
        let payload = F.jws(
            [
                "notificationType": "REFUND", "notificationUUID": "u-2", "signedDate": t0 + F.day,
                "data": [
                    "environment": "Production",
                    "signedTransactionInfo": F.jws(
                        F.transaction(
                            "1", purchase: t0, signed: t0 + F.day, extra: ["revocationDate": t0 + F.day, "revocationReason": 0])),
                ],
            ] as [String: Any])
        try TestFiles.write(
            "received_at,signed_payload\n2026-10-02T00:00:05Z,\(payload)\n", to: root + "/notifications/export.csv")
        let (ledger, _, rejects) = try buildLedger(root)
        #expect(rejects.count == 0)
        let end = try #require(ledger.transaction("1")?.end)
        #expect(end.kind == .refundFull)
        #expect(end.noticedAt.milliseconds == t0 + F.day + 5000)
    }

    @Test func unknownTypesAreCountedNotFatal() throws {
        var fixture = F()
        fixture.notify("PRICE_INCREASE", uuid: "u-1", signed: t0, transaction: F.transaction("1", purchase: t0, signed: t0))
        fixture.notify("SOMETHING_NEW_IN_2027", uuid: "u-2", signed: t0, transaction: nil)
        let (_, load, rejects) = try buildLedger(try fixture.write())
        #expect(rejects.count == 0)
        #expect(load.input.counts.otherNotificationTypes == ["PRICE_INCREASE": 1, "SOMETHING_NEW_IN_2027": 1])
        #expect(load.input.notifications.map(\.type) == [nil, nil])
    }

    @Test func everyRejectReasonNamesTheLine() throws {
        var fixture = F()
        fixture.notificationLines = [
            "{not json",
            F.json(["signedPayload": "only.two"]),
            F.json(["signedPayload": "a.b.c.d"]),
            F.json(["signedPayload": "e30.@@@@.c2ln"]),
            F.json(
                [
                    "notificationType": "REFUND", "notificationUUID": "u", "signedDate": t0,
                    "data": ["signedTransactionInfo": F.jws(["productId": "p", "purchaseDate": t0, "signedDate": t0])],
                ] as [String: Any]),
            F.json(["hello": "world"]),
        ]
        let (_, load, rejects) = try buildLedger(try fixture.write())
        #expect(load.input.counts.rejectedLines == 6)
        let found = rejects.firstRejects.map { ($0.line, $0.field, $0.reason) }
        #expect(found.map(\.0) == [1, 2, 3, 4, 5, 6])
        #expect(found[0].2 == "not valid JSON")
        #expect(found[1].2 == "a JWS has three dot-separated segments; this one has 2")
        #expect(found[2].1 == "signedPayload")
        #expect(found[2].2 == "a JWS has three dot-separated segments; this one has 4")
        #expect(found[3].2 == "the JWS payload is not base64url")
        #expect(found[4].1 == "data.signedTransactionInfo.transactionId")
        #expect(found[4].2 == "a transaction without transactionId")
        #expect(found[5].2.hasPrefix("not a notification"))
    }

    @Test func retriesSandboxAndLateNotificationsAreCountedAndLeftOut() throws {
        var fixture = F()
        let refunded = F.transaction(
            "1", purchase: t0, signed: t0 + F.day, extra: ["revocationDate": t0 + F.day, "revocationReason": 0])
        fixture.notify("REFUND", uuid: "u-1", signed: t0 + F.day, transaction: refunded, received: t0 + F.day + 12 * F.hour)
        fixture.notify("REFUND", uuid: "u-1", signed: t0 + F.day, transaction: refunded, received: t0 + F.day + 1000)
        var sandbox = F.transaction("9", purchase: t0, signed: t0)
        sandbox["environment"] = "Sandbox"
        fixture.notify("ONE_TIME_CHARGE", uuid: "u-2", signed: t0, transaction: sandbox, environment: "Sandbox")
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "u-3", signed: t0 + 90 * F.day,
            transaction: F.transaction("5", purchase: t0 + 90 * F.day, signed: t0 + 90 * F.day))
        let (ledger, load, _) = try buildLedger(try fixture.write())
        #expect(load.input.counts.duplicateNotifications == 1)
        #expect(load.input.counts.excludedByEnvironment == ["Sandbox": 1])
        #expect(load.input.counts.notificationsSignedAfterAsOf == 1)
        #expect(ledger.transactions.map(\.id) == ["1"])
        // The retry received first decides when the server could know.
        #expect(ledger.transaction("1")?.end?.noticedAt.milliseconds == t0 + F.day + 1000)
    }

    @Test func base64urlRoundTripsAndAcceptsPadding() {
        var generator = SeededRandom(seed: 3)
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let encoded = Base64URL.encode(bytes)
            #expect(Base64URL.decode(Array(encoded.utf8)) == bytes)
            let padded = encoded + String(repeating: "=", count: (4 - encoded.count % 4) % 4)
            #expect(Base64URL.decode(Array(padded.utf8)) == bytes)
        }
        #expect(Base64URL.decode(Array("a".utf8)) == nil)
        #expect(Base64URL.decode(Array("ab=c".utf8)) == nil)
    }
}
