import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// `fetch` against the stub of Apple's API: the requests Apple's library would send, files
/// written whole or not at all, and a report on fetched data equal to one on complete data.
@Suite("fetch: what a server never stored")
struct FetchTests {
    let october = AppStoreFixture.october
    let day = AppStoreFixture.day

    /// A purchase, its family member, a refund of both, and four more buyers refunded: a server
    /// that stored every notification (`missing` false) or missed the ten after the purchases.
    func folder(missing: Bool, label: String = #function) throws -> (data: String, missed: [String]) {
        var fixture = AppStoreFixture()
        let purchase = october + day
        let refunded = october + 10 * day
        let buyer = AppStoreFixture.transaction("3000000000000001", purchase: purchase, signed: purchase)
        let member = AppStoreFixture.transaction(
            "3000000000000002", ownership: "FAMILY_SHARED", purchase: purchase + AppStoreFixture.hour,
            signed: purchase + AppStoreFixture.hour)
        fixture.notify("ONE_TIME_CHARGE", uuid: "n-buy", signed: purchase, transaction: buyer)
        fixture.notify("ONE_TIME_CHARGE", uuid: "n-member", signed: purchase + AppStoreFixture.hour, transaction: member)
        var others: [[String: Any]] = []
        for k in 1...4 {
            let id = "300000000000010\(k)"
            let at = purchase + Int64(k) * 60_000
            let bought = AppStoreFixture.transaction(id, purchase: at, signed: at)
            fixture.notify("ONE_TIME_CHARGE", uuid: "n-other-\(k)", signed: at, transaction: bought)
            fixture.link("other-\(k)", id)
            fixture.cost("other-\(k)", at: october + 20 * day, "0.25")
            others.append(bought)
        }
        let kept = fixture.notificationLines.count
        // What the server missed: the family's refund and revocation, and four refund requests
        // each followed by its refund.
        var revoked = buyer
        revoked["revocationDate"] = refunded
        revoked["signedDate"] = refunded
        fixture.notify("REFUND", uuid: "n-refund", signed: refunded, transaction: revoked)
        var memberRevoked = member
        memberRevoked["revocationDate"] = refunded
        memberRevoked["signedDate"] = refunded + 60_000
        fixture.notify("REVOKE", uuid: "n-revoke", signed: refunded + 60_000, transaction: memberRevoked)
        for (k, bought) in others.enumerated() {
            let asked = refunded + Int64(k + 1) * AppStoreFixture.hour
            fixture.notify(
                "CONSUMPTION_REQUEST", uuid: "n-ask-\(k)", signed: asked, transaction: bought, reason: "UNINTENDED_PURCHASE")
            var refund = bought
            refund["revocationDate"] = asked + day
            refund["signedDate"] = asked + day
            fixture.notify("REFUND", uuid: "n-refund-\(k)", signed: asked + day, transaction: refund)
        }
        fixture.link("buyer", "3000000000000001")
        fixture.link("member", "3000000000000002")
        for offset in [2, 5, 12, 15] {
            fixture.cost("buyer", at: october + Int64(offset) * day, "1.00")
            fixture.cost("member", at: october + Int64(offset) * day, "0.50")
        }
        let missed = Array(fixture.notificationLines[kept...])
        if missing { fixture.notificationLines.removeLast(missed.count) }
        return (try fixture.write(label + (missing ? "missing" : "complete")), missed)
    }

    /// `{"signedPayload": JWS}` of a stored line, as a history entry: Apple's first attempt
    /// failed, its retry reached the server at the time the payload was signed.
    func entry(_ line: String) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let signed = try #require(object["signedPayload"] as? String)
        let at = try #require(AppStoreFixture.payload(signed)["signedDate"] as? Int)
        return [
            "signedPayload": signed,
            "sendAttempts": [
                ["attemptDate": at - 3_600_000, "sendAttemptResult": "FAILED"],
                ["attemptDate": at, "sendAttemptResult": "SUCCESS"],
            ],
        ]
    }

    func page(_ entries: [[String: Any]], token: String?) -> String {
        var page: [String: Any] = ["notificationHistory": entries, "hasMore": token != nil]
        if let token { page["paginationToken"] = token }
        return AppStoreFixture.json(page)
    }

    func fetch(_ command: [String], data: String, stub: APIStub, extra: [String] = []) throws -> ToolRun {
        try runTool(
            ["fetch"] + command + [
                "--data", data, "--key", try privateTestKey(), "--key-id", "TEST123456", "--issuer-id", "issuer",
                "--bundle-id", "com.example.app", "--api-url", stub.url, "--max-wait", "20s",
            ] + extra)
    }

    var since: String { Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000) - 10 * day).description }

    @Test func fetchedNotificationsGiveTheReportOfTheCompleteFolder() throws {
        let complete = try folder(missing: false)
        let (data, missed) = try folder(missing: true)
        try #require(missed.count == 10)
        let pages = [
            page(try missed.prefix(4).map(entry), token: "t1"), page([], token: "t2"),
            page(try missed.dropFirst(4).map(entry), token: nil),
        ]
        let stub = try APIStub(routes: [
            [
                "method": "POST", "prefix": "/inApps/v1/notifications/history",
                "responses": pages.map { ["status": 200, "body": $0] },
            ]
        ])
        let run = try fetch(["notifications"], data: data, stub: stub, extra: ["--since", since, "--only-failures"])
        #expect(run.status == 0, "\(run.stderr)")
        let requests = stub.requests
        #expect(requests.map(\.method) == ["POST", "POST", "POST"])
        #expect(
            requests.map(\.path) == [
                "/inApps/v1/notifications/history", "/inApps/v1/notifications/history?paginationToken=t1",
                "/inApps/v1/notifications/history?paginationToken=t2",
            ])
        let body = try #require(try JSONSerialization.jsonObject(with: Data(requests[0].body.utf8)) as? [String: Any])
        #expect(body["startDate"] is Int && body["endDate"] is Int && body["onlyFailures"] as? Bool == true)
        #expect(requests.allSatisfy { $0.headers["authorization"]?.hasPrefix("Bearer ") == true })
        let token = try #require(requests[0].headers["authorization"]?.dropFirst("Bearer ".count).split(separator: "."))
        let claims = try #require(try JSONSerialization.jsonObject(with: base64URLDecode(token[1]) ?? Data()) as? [String: Any])
        #expect(claims["aud"] as? String == "appstoreconnect-v1" && claims["bid"] as? String == "com.example.app")
        #expect(requests[0].headers["content-type"] == "application/json")
        let written = try FileManager.default.contentsOfDirectory(atPath: data + "/notifications").filter {
            $0.hasPrefix("history-")
        }
        try #require(written.count == 1)
        #expect(try TestFiles.read(data + "/notifications/" + written[0]) == pages.joined(separator: "\n") + "\n")
        #expect(!FileManager.default.fileExists(atPath: data + "/.refund-cost-fetch/" + written[0] + ".partial"))

        let outA = try TestFiles.temporaryDirectory("complete")
        let outB = try TestFiles.temporaryDirectory("fetched")
        #expect(try runTool(["report", "--data", complete.data, "--month", "2026-10", "--out", outA, "--quiet"]).status == 0)
        let report = try runTool(["report", "--data", data, "--month", "2026-10", "--out", outB, "--quiet"])
        #expect(report.status == 0, "\(report.stderr)")
        for file in [
            "summary.csv", "totals.csv", "refunds.csv", "leaks.csv", "cost_by_day.csv", "family_links.csv", "family_spend.csv",
        ] {
            #expect(try TestFiles.read(outA + "/2026-10/" + file) == TestFiles.read(outB + "/2026-10/" + file), "\(file)")
        }
        let refunds = try TestFiles.read(outB + "/2026-10/refunds.csv").split(separator: "\n")
        #expect(refunds.count == 6, "the five refunds the server missed are there")
    }

    @Test func aPageThatRepeatsItsTokenStopsAndWritesNothing() throws {
        let (data, _) = try folder(missing: true)
        let looping = page([], token: "same")
        let stub = try APIStub(routes: [
            ["method": "POST", "prefix": "/inApps/v1/notifications/history", "responses": [["status": 200, "body": looping]]]
        ])
        let run = try fetch(["notifications"], data: data, stub: stub, extra: ["--since", since])
        #expect(run.status == 1)
        #expect(run.stderr.contains("token same came before"), "\(run.stderr)")
        #expect(run.stderr.contains("2 pages had come, nothing was written"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/notifications") == ["n.jsonl"])
        #expect(stub.requests.count == 2)
    }

    @Test func aTokenCycleStopsAtItsFirstRepeat() throws {
        // A, B, A, B, ...: no page repeats the one before it, yet the listing never ends.
        let (data, _) = try folder(missing: true)
        let stub = try APIStub(routes: [
            [
                "method": "POST", "prefix": "/inApps/v1/notifications/history",
                "responses": [
                    ["status": 200, "body": page([], token: "A")], ["status": 200, "body": page([], token: "B")],
                    ["status": 200, "body": page([], token: "A")], ["status": 200, "body": page([], token: "B")],
                ],
            ]
        ])
        let run = try fetch(["notifications"], data: data, stub: stub, extra: ["--since", since])
        #expect(run.status == 1)
        #expect(run.stderr.contains("token A came before"), "\(run.stderr)")
        #expect(stub.requests.count == 3, "stopped at the first token seen twice")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/notifications") == ["n.jsonl"])
    }

    @Test func aRangeOlderThanAppleKeepsIsAUsageError() throws {
        let (data, _) = try folder(missing: true)
        let stub = try APIStub(routes: [])
        let old = Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000) - 200 * day).description
        let run = try fetch(["notifications"], data: data, stub: stub, extra: ["--since", old])
        #expect(run.status == 2)
        #expect(run.stderr.contains("180 days of history, so --since"), "\(run.stderr)")
        let sandbox = try fetch(["notifications"], data: data, stub: stub, extra: ["--since", since, "--environment", "Sandbox"])
        #expect(sandbox.status != 2 || !sandbox.stderr.contains("30 days"), "ten days back is inside Sandbox's 30")
        #expect(try runTool(["fetch"]).status == 2)
    }

    @Test func aCutHistoryGoesOnFromItsNextPage() throws {
        let (data, _) = try folder(missing: true)
        let first = AppStoreFixture.json(["signedTransactions": [], "hasMore": true, "revision": "r1"])
        let second = AppStoreFixture.json(["signedTransactions": [], "hasMore": false, "revision": "r2"])
        let failing = try APIStub(
            routes: [
                [
                    "method": "GET", "prefix": "/inApps/v2/history/",
                    "responses": [["status": 200, "body": first], ["status": 404, "body": ["errorCode": 4040010]]],
                ]
            ], label: "failing")
        let ids = ["--original-transaction-id", "3000000000000001"]
        let cut = try fetch(["transactions"], data: data, stub: failing, extra: ids)
        #expect(cut.status == 1)
        #expect(cut.stderr.contains("a rerun goes on from the next page"), "\(cut.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data + "/transactions/history-3000000000000001.jsonl"))
        let stub = try APIStub(routes: [
            ["method": "GET", "prefix": "/inApps/v2/history/", "responses": [["status": 200, "body": second]]]
        ])
        let dry = try fetch(["transactions"], data: data, stub: stub, extra: ids + ["--dry-run"])
        #expect(dry.stdout.contains("would send GET \(stub.url)/inApps/v2/history/3000000000000001?revision=r1"), "\(dry.stdout)")
        #expect(dry.stdout.contains("JWT header") && !dry.stdout.contains("eyJ"))
        #expect(stub.requests.isEmpty)
        let rerun = try fetch(["transactions"], data: data, stub: stub, extra: ids)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(stub.requests.map(\.path) == ["/inApps/v2/history/3000000000000001?revision=r1"])
        #expect(try TestFiles.read(data + "/transactions/history-3000000000000001.jsonl") == first + "\n" + second + "\n")
    }

    @Test func incompleteHistoriesAreCompletedAndNoLongerWarned() throws {
        var fixture = AppStoreFixture()
        let purchase = october + day
        let bought = AppStoreFixture.transaction("4000000000000001", purchase: purchase, signed: purchase)
        let later = AppStoreFixture.transaction("4000000000000002", purchase: purchase + day, signed: purchase + day)
        fixture.historyLines.append(
            AppStoreFixture.json(["signedTransactions": [AppStoreFixture.jws(bought)], "hasMore": true, "revision": "r7"]))
        fixture.link("a1", "4000000000000001")
        fixture.link("a2", "4000000000000002")
        fixture.cost("a2", at: purchase + 2 * day, "1.00")
        let data = try fixture.write()
        let before = try runTool(["validate", "--data", data, "--quiet"])
        #expect(
            before.stderr.contains(
                "history.jsonl:1: the history page of transaction 4000000000000001 says hasMore (revision r7)"),
            "\(before.stderr)")
        #expect(before.stderr.contains("fetch transactions --incomplete"))

        let rest = AppStoreFixture.json(["signedTransactions": [AppStoreFixture.jws(later)], "hasMore": false, "revision": "r8"])
        let stub = try APIStub(routes: [
            ["method": "GET", "prefix": "/inApps/v2/history/", "responses": [["status": 200, "body": rest]]]
        ])
        let run = try fetch(["transactions"], data: data, stub: stub, extra: ["--incomplete"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(stub.requests.map(\.path) == ["/inApps/v2/history/4000000000000001?revision=r7"])
        #expect(try TestFiles.read(data + "/transactions/history-4000000000000001-after-r7.jsonl") == rest + "\n")
        let after = try runTool(["validate", "--data", data, "--quiet"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(!after.stderr.contains("hasMore"), "the history is complete now: \(after.stderr)")
        #expect(after.stdout.contains("transactions (latest copy of each)          2"), "\(after.stdout)")
        let again = try fetch(["transactions"], data: data, stub: stub, extra: ["--incomplete"])
        #expect(again.status == 0 && stub.requests.count == 1, "nothing left to fetch")
    }

    @Test func aCutHistoryAmongOtherCustomersIsNamedCountedAndContinued() throws {
        // One file of three customers' histories, as exports come: A's stops after its first
        // page (hasMore), B's is one page, C's goes on in the page after its first.
        var fixture = AppStoreFixture()
        let at = october + day
        func bought(_ id: String, original: String? = nil, _ offset: Int64) -> String {
            AppStoreFixture.jws(
                AppStoreFixture.transaction(id, original: original, purchase: at + offset, signed: at + offset))
        }
        func page(_ transactions: [String], more: Bool, _ revision: String) -> String {
            AppStoreFixture.json(["signedTransactions": transactions, "hasMore": more, "revision": revision])
        }
        fixture.historyLines = [
            page([bought("5000000000000001", 0)], more: true, "rA"),
            page([bought("5000000000000011", 60_000)], more: false, "rB"),
            page([bought("5000000000000021", 120_000)], more: true, "rC"),
            page([bought("5000000000000022", original: "5000000000000021", day)], more: false, "rC2"),
        ]
        for (account, id) in [("a", "5000000000000001"), ("b", "5000000000000011"), ("c", "5000000000000021")] {
            fixture.link(account, id)
        }
        let data = try fixture.write()
        let before = try runTool(["validate", "--data", data])
        #expect(
            before.stderr.contains(
                "history.jsonl:1: the history page of transaction 5000000000000001 says hasMore (revision rA)"),
            "\(before.stderr)")
        #expect(!before.stderr.contains("revision rC"), "C's history goes on: \(before.stderr)")
        let counted = before.stdout.split(separator: "\n").first { $0.contains("history pages with more to fetch") }
        #expect(counted?.hasSuffix(" 1") == true, "\(before.stdout)")

        let rest = AppStoreFixture.json(["signedTransactions": [], "hasMore": false, "revision": "rA2"])
        let stub = try APIStub(routes: [
            ["method": "GET", "prefix": "/inApps/v2/history/", "responses": [["status": 200, "body": rest]]]
        ])
        let run = try fetch(["transactions"], data: data, stub: stub, extra: ["--incomplete"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(stub.requests.map(\.path) == ["/inApps/v2/history/5000000000000001?revision=rA"])
        let after = try runTool(["validate", "--data", data])
        #expect(!after.stderr.contains("hasMore"), "every history is complete now: \(after.stderr)")
    }

    /// A generated set whose server kept only the first page of three histories: after
    /// `--incomplete` (the stub serving the rest of each), its report is the complete set's.
    @Test func aGeneratedSetWithCutHistoriesIsCompleted() throws {
        let base = try TestFiles.temporaryDirectory("generated")
        let arguments = ["generate", "--accounts", "300", "--seed", "11", "--quiet"]
        #expect(try runTool(arguments + ["--out", base + "/complete"]).status == 0)
        #expect(try runTool(arguments + ["--out", base + "/cut", "--cut-histories", "3"]).status == 0)
        func pages(_ set: String) throws -> [[String: Any]] {
            let folder = base + "/" + set + "/transactions/"
            return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().flatMap { name in
                try TestFiles.read(folder + name).split(separator: "\n").map { line in
                    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                }
            }
        }
        let cutPages = try pages("cut").filter { $0["hasMore"] as? Bool == true }
        try #require(cutPages.count == 3)
        let complete = try pages("complete")
        var routes: [[String: Any]] = []
        for page in cutPages {
            let kept = try #require((page["signedTransactions"] as? [String])?.first)
            let full = try #require(complete.first { ($0["signedTransactions"] as? [String])?.first == kept })
            let rest = Array((full["signedTransactions"] as? [String] ?? []).dropFirst())
            let id = try #require(AppStoreFixture.payload(kept)["transactionId"] as? String)
            let body = AppStoreFixture.json(["signedTransactions": rest, "hasMore": false, "revision": "done"])
            routes.append(["method": "GET", "prefix": "/inApps/v2/history/\(id)?", "responses": [["status": 200, "body": body]]])
        }
        let stub = try APIStub(routes: routes)
        let run = try fetch(["transactions"], data: base + "/cut", stub: stub, extra: ["--incomplete"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("completed 3 of 3 cut histories"), "\(run.stdout)")
        for set in ["complete", "cut"] {
            let out = base + "/out-" + set
            let report = try runTool(["report", "--data", base + "/" + set, "--month", "2026-10", "--out", out, "--quiet"])
            #expect(report.status == 0, "\(report.stderr)")
            #expect(!report.stderr.contains("hasMore"))
        }
        for file in [
            "summary.csv", "refunds.csv", "leaks.csv", "cost_by_day.csv", "family_spend.csv", "consumption_requests.csv",
        ] {
            #expect(
                try TestFiles.read(base + "/out-complete/2026-10/" + file) == TestFiles.read(base + "/out-cut/2026-10/" + file),
                "\(file)")
        }
    }

    @Test func histories429And500AreRetriedAndARerunSkipsCompleteCustomers() throws {
        let (data, _) = try folder(missing: true)
        let first = AppStoreFixture.json(["signedTransactions": [], "hasMore": true, "revision": "r1"])
        let second = AppStoreFixture.json(["signedTransactions": [], "hasMore": false, "revision": "r2"])
        let other = AppStoreFixture.json(["signedTransactions": [], "hasMore": false, "revision": "x1"])
        let stub = try APIStub(routes: [
            [
                "method": "GET", "prefix": "/inApps/v2/history/",
                "responses": [
                    ["status": 429, "headers": ["Retry-After": "+300"]], ["status": 200, "body": first], ["status": 500],
                    ["status": 200, "body": second], ["status": 200, "body": other],
                ],
            ]
        ])
        let ids = ["--original-transaction-id", "3000000000000001", "--original-transaction-id", "3000000000000002"]
        let run = try fetch(["transactions"], data: data, stub: stub, extra: ids)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("customers 2 of 2"), "\(run.stderr)")
        #expect(
            stub.requests.map(\.path) == [
                "/inApps/v2/history/3000000000000001", "/inApps/v2/history/3000000000000001",
                "/inApps/v2/history/3000000000000001?revision=r1", "/inApps/v2/history/3000000000000001?revision=r1",
                "/inApps/v2/history/3000000000000002",
            ])
        #expect(try TestFiles.read(data + "/transactions/history-3000000000000001.jsonl") == first + "\n" + second + "\n")
        #expect(try TestFiles.read(data + "/transactions/history-3000000000000002.jsonl") == other + "\n")
        let again = try fetch(["transactions"], data: data, stub: stub, extra: ids)
        #expect(again.status == 0 && again.stdout.contains("2 already complete"), "\(again.stdout)")
        #expect(stub.requests.count == 5)
    }

    @Test func refundHistoriesAndA401() throws {
        let (data, _) = try folder(missing: true)
        let refunds = AppStoreFixture.json(["signedTransactions": [], "hasMore": false, "revision": "f1"])
        let stub = try APIStub(routes: [
            ["method": "GET", "prefix": "/inApps/v2/history/", "responses": [["status": 200, "body": refunds]]],
            ["method": "GET", "prefix": "/inApps/v2/refund/lookup/", "responses": [["status": 200, "body": refunds]]],
        ])
        let run = try fetch(["transactions"], data: data, stub: stub, extra: ["--original-transaction-id", "7", "--refunds"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(stub.requests.map(\.path) == ["/inApps/v2/history/7", "/inApps/v2/refund/lookup/7"])
        #expect(try TestFiles.read(data + "/transactions/refunds-7.jsonl") == refunds + "\n")

        let refusing = try APIStub(routes: [["method": "GET", "prefix": "/inApps/v2/history/", "responses": [["status": 401]]]])
        let denied = try fetch(
            ["transactions"], data: data, stub: refusing,
            extra: ["--original-transaction-id", "8", "--original-transaction-id", "9"])
        #expect(denied.status == 1)
        #expect(denied.stderr.contains("check --key-id and --issuer-id"), "\(denied.stderr)")
        #expect(refusing.requests.count == 1, "401 stops at once")
        #expect(!denied.stderr.contains("eyJ"))
    }
}
