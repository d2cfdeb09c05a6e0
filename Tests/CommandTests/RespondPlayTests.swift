import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// `respond --store play` against the stub of Google's API: every pending refund review
/// answered once inside its 24 hours, its order confirmed with Google first, the body worked
/// out by hand from the account's cost rows, a run killed mid-send sending the same body again.
///
/// The stub holds Google's 24 hours to the real clock, so every time here is counted back from now.
@Suite("respond --store play: Google Play's refund reviews")
struct RespondPlayTests {
    typealias F = AppStoreFixture
    static let (hour, day) = (F.hour, F.day)
    /// Now, to the minute (the run's clock is the real one).
    static let now = Int64(Date().timeIntervalSince1970 / 60) * 60_000
    static func iso(_ millis: Int64) -> String { Timestamp(milliseconds: millis).description }

    static func order(_ id: String, account: Int, product: String, created: Int64, extra: [String: Any] = [:]) -> [String: Any] {
        var json = PlayInputTests.order(id, token: "tok-\(account)-\(id)", product: product, created: iso(created))
        for (key, value) in extra { json[key] = value }
        return json
    }

    static func review(_ id: String, account: Int, at: Int64, package: String = "com.example.app") -> String {
        F.json([
            "version": "1.0", "packageName": package, "eventTimeMillis": String(at),
            "pendingRefundReviewNotification": [
                "purchaseToken": "tok-\(account)-\(id)", "orderId": id, "pendingRefundToken": "prt-\(id)",
            ],
        ])
    }

    static func purchase(_ id: String, account: Int) -> String {
        F.json([
            "kind": "androidpublisher#productPurchaseV2", "purchaseToken": "tok-\(account)-\(id)",
            "obfuscatedExternalAccountId": "acct-\(account)", "productLineItem": [["productId": "x"]],
        ])
    }

    /// Four accounts' orders and reviews, and the data folder holding them.
    ///
    /// - acct-1 holds two packs of 100 credits (gems_100): GPA.0 bought 10 days ago, GPA.1 3
    ///   days ago, reviewed an hour ago. 80 credits 9 days ago come from GPA.0; 30 two days ago
    ///   take GPA.0's last 20 and 10 of GPA.1; 30 a day ago come from GPA.1: 40 of its 100 used,
    ///   40,000 milliunits, partly used: NEUTRAL (Apple's GRANT_PRORATED), the two rows that drew
    ///   from it as events, the latest first.
    /// - acct-2's monthly subscription GPA.2 runs from 25 days ago to 5 days on, reviewed an hour
    ///   ago, with a row 5 days ago: 599 of its 720 hours elapsed, 83,194 milliunits, heavy use
    ///   (50% and more): DECLINE.
    /// - acct-3's GPA.3 (a product products.csv does not list) served nothing: 0, APPROVE.
    /// - acct-4's GPA.4 was reviewed 25 hours ago: its 24 hours ended before the journal began.
    /// - acct-5's GPA.5 was refunded by Google after its review: skipped, nothing sent.
    static func scenario(label: String = #function) throws -> (data: String, orders: [String: Any]) {
        var fixture = F()
        fixture.products += "gems_100,Consumable,,100\n"
        fixture.consent = "account_id,consented,at\n" + (1...5).map { "acct-\($0),true,2026-01-01T00:00:00Z\n" }.joined()
        fixture.cost("acct-1", at: now - 9 * day, "0.80", category: "chat", credits: 80)
        fixture.cost("acct-1", at: now - 2 * day, "0.30", category: "image", credits: 30)
        fixture.cost("acct-1", at: now - day, "0.30", category: "chat", credits: 30)
        fixture.cost("acct-2", at: now - 5 * day, "2.00", category: "video")
        fixture.cost("acct-9", at: now - day, "9.00", category: "chat")
        let subscription: [String: Any] = [
            "productId": "pro_monthly",
            "subscriptionDetails": [
                "servicePeriodStartTime": iso(now - 25 * day), "servicePeriodEndTime": iso(now + 5 * day),
            ],
        ]
        let orders: [String: Any] = [
            "GPA.0": order("GPA.0", account: 1, product: "gems_100", created: now - 10 * day),
            "GPA.1": order("GPA.1", account: 1, product: "gems_100", created: now - 3 * day, extra: ["state": "PENDING_REFUND"]),
            "GPA.2": order(
                "GPA.2", account: 2, product: "pro_monthly", created: now - 25 * day, extra: ["lineItems": [subscription]]),
            "GPA.3": order("GPA.3", account: 3, product: "stickers", created: now - 2 * day),
            "GPA.4": order("GPA.4", account: 4, product: "stickers", created: now - 3 * day),
            "GPA.5": order("GPA.5", account: 5, product: "stickers", created: now - 3 * day),
        ]
        let data = try fixture.write(label)
        let play = data + "/play/"
        try TestFiles.write(
            [
                review("GPA.1", account: 1, at: now - hour), review("GPA.2", account: 2, at: now - hour),
                review("GPA.3", account: 3, at: now - 3 * hour), review("GPA.4", account: 4, at: now - 25 * hour),
                review("GPA.5", account: 5, at: now - 4 * hour),
            ].joined(separator: "\n") + "\n", to: play + "notifications/rtdn.jsonl")
        try TestFiles.write(
            F.json([
                "purchaseToken": "tok-5-GPA.5", "orderId": "GPA.5", "voidedTimeMillis": String(now - 2 * hour), "voidedReason": 1,
                "voidedSource": 0,
            ]) + "\n", to: play + "voided/v.jsonl")
        // play/ holds GPA.0 and GPA.1 as fetched; respond confirms the reviewed ones with Google.
        try TestFiles.write(
            [F.json(orders["GPA.0"] ?? [:]), F.json(orders["GPA.1"] ?? [:])].joined(separator: "\n") + "\n",
            to: play + "orders/o.jsonl")
        let purchases = [("GPA.0", 1), ("GPA.1", 1), ("GPA.2", 2), ("GPA.3", 3), ("GPA.4", 4), ("GPA.5", 5)]
        try TestFiles.write(
            purchases.map { purchase($0.0, account: $0.1) }.joined(separator: "\n") + "\n", to: play + "purchases/p.jsonl")
        return (data, orders)
    }

    static func reviews(_ ids: [String]) -> [String: Any] {
        Dictionary(uniqueKeysWithValues: ids.map { ($0, ["token": "prt-" + $0, "at_ms": now - hour] as [String: Any]) })
    }

    static func respond(_ data: String, journal: String, stub: APIStub, extra: [String] = []) throws -> ToolRun {
        try runTool(
            [
                "respond", "--store", "play", "--data", data, "--journal", journal, "--service-account", try privatePlayKey(),
                "--package-name", "com.example.app", "--api-url", stub.url,
            ] + extra)
    }

    static func body(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func event(_ account: String, _ at: Int64, _ category: String) -> [String: String] {
        ["obfuscatedAccountId": account, "consumptionTime": iso(at), "consumptionItemDescription": category]
    }

    @Test func everyReviewIsAnsweredOnceFromItsConfirmedOrderAndTheAccountsUse() throws {
        let (data, orders) = try Self.scenario()
        var script: [String: Any] = ["package": "com.example.app", "orders": orders]
        var reviews = Self.reviews(["GPA.1", "GPA.2", "GPA.3"])
        reviews["GPA.1"] = ["token": "prt-GPA.1", "at_ms": Self.now - Self.hour]
        script["reviews"] = reviews
        let stub = try APIStub(play: script)
        let journal = try TestFiles.temporaryDirectory("play-journal") + "/journal.jsonl"
        let run = try Self.respond(data, journal: journal, stub: stub)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("missed   1 requests whose 24 hours ended before this journal began"), "\(run.stdout)")
        #expect(run.stdout.contains("skipped  prt-GPA.5  order GPA.5: Google already refunded the order ("), "\(run.stdout)")
        for id in ["GPA.1", "GPA.2", "GPA.3"] {
            #expect(run.stdout.contains("sent      prt-\(id)  order \(id): HTTP 200"), "\(run.stdout)")
        }
        // Each reviewed order was fetched from Google before its answer went out.
        let calls = stub.requests.filter { $0.path != "/token" }
        let confirms = calls.filter { $0.method == "GET" }.map(\.path)
        #expect(
            confirms.map { String($0.split(separator: "=").last ?? "") } == ["GPA.5", "GPA.3", "GPA.1", "GPA.2"],
            "the open reviews by time: \(confirms)")
        let answers = calls.filter { $0.method == "POST" }
        #expect(answers.map(\.note) == ["review first", "review first", "review first"], "\(answers.map(\.note))")
        let byOrder = Dictionary(
            uniqueKeysWithValues: answers.map {
                (String($0.path.split(separator: "/").last?.split(separator: ":").first ?? ""), $0)
            })
        let (now, day) = (Self.now, Self.day)
        let pack = try Self.body(byOrder["GPA.1"]?.body ?? "")
        #expect(pack["pendingRefundToken"] as? String == "prt-GPA.1")
        #expect(pack["refundPreference"] as? String == "NEUTRAL")
        #expect(pack["consumptionPercentageMilliunits"] as? Int == 40_000)
        #expect(pack["sampleContentProvided"] as? Bool == false)
        #expect(
            pack["consumptionUsageEvents"] as? [[String: String]] == [
                Self.event("acct-1", now - day, "chat"), Self.event("acct-1", now - 2 * day, "image"),
            ])
        let monthly = try Self.body(byOrder["GPA.2"]?.body ?? "")
        #expect(monthly["refundPreference"] as? String == "DECLINE")
        #expect(monthly["consumptionPercentageMilliunits"] as? Int == 83_194)
        #expect(monthly["consumptionUsageEvents"] as? [[String: String]] == [Self.event("acct-2", now - 5 * day, "video")])
        let unused = try Self.body(byOrder["GPA.3"]?.body ?? "")
        #expect(unused["refundPreference"] as? String == "APPROVE")
        #expect(unused["consumptionPercentageMilliunits"] as? Int == 0)
        #expect(unused["consumptionUsageEvents"] == nil)
        // Nothing printed or journaled holds the access token.
        let journalText = try TestFiles.read(journal)
        #expect(!journalText.contains("ya29.") && !run.stdout.contains("ya29.") && !run.stderr.contains("ya29."))

        // Answered for good: the next run sends nothing, and says so.
        let next = try Self.respond(data, journal: journal, stub: stub)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(stub.requests.filter { $0.method == "POST" && $0.path != "/token" }.count == 3)
        #expect(next.stdout.contains("4 answered before"), "\(next.stdout)")
    }

    @Test func aRunKilledMidSendSendsTheSameBodyAgainAndGoogleCountsTheFirst() throws {
        let (data, orders) = try Self.scenario()
        let script: [String: Any] = [
            "package": "com.example.app", "orders": orders, "reviews": Self.reviews(["GPA.1"]), "review_delay": 30,
        ]
        let slow = try APIStub(play: script, label: "slow-play")
        try FileManager.default.removeItem(atPath: data + "/play/notifications/rtdn.jsonl")
        try TestFiles.write(
            Self.review("GPA.1", account: 1, at: Self.now - Self.hour) + "\n", to: data + "/play/notifications/r.jsonl")
        let journal = try TestFiles.temporaryDirectory("play-killed") + "/journal.jsonl"
        let process = Process()
        process.executableURL = toolExecutable()
        process.arguments = [
            "respond", "--store", "play", "--data", data, "--journal", journal, "--service-account", try privatePlayKey(),
            "--package-name", "com.example.app", "--api-url", slow.url,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed once the answer is journaled `sending` and on its way.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !((try? TestFiles.read(journal)) ?? "").contains("\"state\":\"sending\"") {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.3)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let recorded = try #require(
            try TestFiles.read(journal).split(separator: "\n").first { $0.contains("\"state\":\"sending\"") })

        let stub = try APIStub(play: ["package": "com.example.app", "orders": orders, "reviews": Self.reviews(["GPA.1"])])
        let next = try Self.respond(data, journal: journal, stub: stub)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(next.stdout.contains("sent      prt-GPA.1  order GPA.1: HTTP 200"), "\(next.stdout)")
        let sent = try #require(stub.requests.first { $0.method == "POST" && $0.path.hasSuffix(":reviewrefund") })
        // The body the killed run journaled, byte for byte, never one worked out again.
        let recordedBody = try Self.body(String(recorded))["body"]
        let recordedText = String(
            decoding: try JSONSerialization.data(withJSONObject: recordedBody ?? [:], options: [.sortedKeys]), as: UTF8.self)
        let sentText = String(
            decoding: try JSONSerialization.data(withJSONObject: try Self.body(sent.body), options: [.sortedKeys]), as: UTF8.self)
        #expect(recordedText == sentText)
        #expect(sent.body.hasPrefix("{\"pendingRefundToken\":\"prt-GPA.1\""), "\(sent.body)")
    }

    @Test func anOrderGoogleDoesNotKnowIsNotAnsweredAndEveryRunSaysSo() throws {
        let (data, orders) = try Self.scenario()
        var known = orders
        known["GPA.1"] = nil
        let stub = try APIStub(play: [
            "package": "com.example.app", "orders": known, "reviews": Self.reviews(["GPA.2", "GPA.3"]),
        ])
        let journal = try TestFiles.temporaryDirectory("play-unknown") + "/journal.jsonl"
        let run = try Self.respond(data, journal: journal, stub: stub, extra: ["--quiet", "--summary"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stderr.contains("failed    prt-GPA.1  order GPA.1: Google knows no order GPA.1 for com.example.app (HTTP 404"),
            "\(run.stderr)")
        #expect(!stub.requests.contains { $0.path.contains("GPA.1:reviewrefund") }, "never answered on the notification alone")
        #expect(run.stdout.contains("2 sent") && run.stdout.hasSuffix("exit 1: 1 failed, not yet sent\n"), "\(run.stdout)")
        let again = try Self.respond(data, journal: journal, stub: stub, extra: ["--quiet"])
        #expect(again.status == 1 && again.stderr.contains("failed    prt-GPA.1"), "\(again.stderr)")
    }

    @Test func aDryRunSaysWhatWouldBeSentAndWritesNothing() throws {
        let (data, _) = try Self.scenario()
        let journal = try TestFiles.temporaryDirectory("play-dry") + "/journal.jsonl"
        let run = try runTool([
            "respond", "--store", "play", "--data", data, "--journal", journal, "--package-name", "com.example.app", "--dry-run",
        ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stdout.contains(
                "would send POST https://androidpublisher.googleapis.com/androidpublisher/v3/applications/com.example.app/orders/GPA.1:reviewrefund"
            ), "\(run.stdout)")
        // Play/ holds GPA.1's order; the others a dry run without a key cannot confirm.
        #expect(run.stderr.contains("failed    prt-GPA.2  order GPA.2: play/ holds no order GPA.2"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: journal))
        let wrong = try runTool([
            "respond", "--store", "play", "--data", data, "--journal", journal, "--package-name", "com.example.app", "--key-id",
            "ABC",
        ])
        #expect(wrong.status == 2 && wrong.stderr.contains("--key-id is Apple's answers' alone"), "\(wrong.stderr)")
    }

    @Test func aReviewGoogleKeepsFailingIsMissedOnceItsTwentyFourHoursPassAndReportedOnce() throws {
        let (data, orders) = try Self.scenario()
        let script: [String: Any] = [
            "package": "com.example.app", "orders": orders, "reviews": Self.reviews(["GPA.1", "GPA.2", "GPA.3"]),
            "review_failures": ["GPA.1": ["status": 503, "times": 1000]],
        ]
        let stub = try APIStub(play: script)
        let journal = try TestFiles.temporaryDirectory("play-missed") + "/journal.jsonl"
        let run = try Self.respond(data, journal: journal, stub: stub, extra: ["--max-wait", "2s", "--quiet"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("failed    prt-GPA.1  order GPA.1: HTTP 503"), "\(run.stderr)")
        // A day later by --as-of: its 24 hours ended an hour before; missed once, said once.
        let later = Self.iso(Self.now + 24 * Self.hour)
        let missed = try Self.respond(data, journal: journal, stub: stub, extra: ["--as-of", later, "--quiet", "--summary"])
        #expect(missed.status == 1, "\(missed.stdout)\(missed.stderr)")
        #expect(
            missed.stderr.contains(
                "missed   prt-GPA.1  order GPA.1: its 24 hours ended \(Self.iso(Self.now + 23 * Self.hour))"), "\(missed.stderr)")
        #expect(missed.stdout.hasSuffix("exit 1: 1 missed since the last summary\n"), "\(missed.stdout)")
        let after = try Self.respond(data, journal: journal, stub: stub, extra: ["--as-of", later, "--quiet"])
        #expect(after.status == 0 && after.stderr.isEmpty, "\(after.stderr)")
    }

    @Test func noConsentAndAnOrderGoogleRefundedAreSkippedAndNothingIsSent() throws {
        let (data, orders) = try Self.scenario()
        // acct-2 never consented; Google says GPA.3 was refunded since play/ was written.
        try TestFiles.write(
            "account_id,consented,at\nacct-1,true,2026-01-01T00:00:00Z\nacct-3,true,2026-01-01T00:00:00Z\n",
            to: data + "/consent.csv")
        var known = orders
        known["GPA.3"] = Self.order(
            "GPA.3", account: 3, product: "stickers", created: Self.now - 2 * Self.day, extra: ["state": "REFUNDED"])
        let stub = try APIStub(play: [
            "package": "com.example.app", "orders": known, "reviews": Self.reviews(["GPA.1", "GPA.2", "GPA.3"]),
        ])
        let journal = try TestFiles.temporaryDirectory("play-skipped") + "/journal.jsonl"
        let run = try Self.respond(data, journal: journal, stub: stub)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("skipped  prt-GPA.2  order GPA.2: no consent"), "\(run.stdout)")
        #expect(run.stdout.contains("skipped  prt-GPA.3  order GPA.3: Google already refunded the order"), "\(run.stdout)")
        let answered = stub.requests.filter { $0.path.hasSuffix(":reviewrefund") }.map(\.path)
        #expect(answered == ["/androidpublisher/v3/applications/com.example.app/orders/GPA.1:reviewrefund"])
    }

    @Test func aServiceAccountGoogleRefusesStopsTheRunWithWhatToCheck() throws {
        let (data, orders) = try Self.scenario()
        let stub = try APIStub(
            play: [
                "package": "com.example.app", "orders": orders, "reviews": Self.reviews(["GPA.1"]),
                "client_email": "someone-else@example.iam.gserviceaccount.com",
            ])
        let journal = try TestFiles.temporaryDirectory("play-refused") + "/journal.jsonl"
        let run = try Self.respond(data, journal: journal, stub: stub, extra: ["--quiet", "--summary"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("Google refused the service account"), "\(run.stderr)")
        #expect(run.stdout.contains("exit 1: Google refused the service account (401)"), "\(run.stdout)")
        #expect(!stub.requests.contains { $0.path.hasSuffix(":reviewrefund") }, "nothing sent")
    }

    @Test func aRecordedAnswerGoesOnlyToTheOrderItWasJournaledForAndNotAfterAVoid() throws {
        let (data, orders) = try Self.scenario()
        let failing: [String: Any] = [
            "package": "com.example.app", "orders": orders, "reviews": Self.reviews(["GPA.1", "GPA.2", "GPA.3"]),
            "review_failures": ["GPA.1": ["status": 503, "times": 1000], "GPA.2": ["status": 503, "times": 1000]],
        ]
        let journal = try TestFiles.temporaryDirectory("play-recorded") + "/journal.jsonl"
        let first = try Self.respond(data, journal: journal, stub: try APIStub(play: failing), extra: ["--max-wait", "1s"])
        #expect(first.status == 1 && first.stderr.contains("failed    prt-GPA.1"), "\(first.stderr)")
        // A later file names GPA.1's review for GPA.9, earlier; Google refunds GPA.2 meanwhile.
        try TestFiles.write(
            F.json([
                "version": "1.0", "packageName": "com.example.app", "eventTimeMillis": String(Self.now - 2 * Self.hour),
                "pendingRefundReviewNotification": [
                    "purchaseToken": "tok-9", "orderId": "GPA.9", "pendingRefundToken": "prt-GPA.1",
                ],
            ]) + "\n", to: data + "/play/notifications/later.jsonl")
        try TestFiles.write(
            try TestFiles.read(data + "/play/voided/v.jsonl")
                + F.json(["purchaseToken": "tok-2-GPA.2", "orderId": "GPA.2", "voidedTimeMillis": String(Self.now - 5 * 60_000)])
                + "\n", to: data + "/play/voided/v.jsonl")
        let stub = try APIStub(play: [
            "package": "com.example.app", "orders": orders, "reviews": Self.reviews(["GPA.1", "GPA.2"]),
        ])
        let next = try Self.respond(data, journal: journal, stub: stub)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(next.stdout.contains("sent      prt-GPA.1  order GPA.1: HTTP 200"), "\(next.stdout)")
        #expect(next.stdout.contains("skipped  prt-GPA.2  order GPA.2: Google already refunded the order ("), "\(next.stdout)")
        #expect(
            stub.requests.filter { $0.method == "POST" && $0.path != "/token" }.map(\.path) == [
                "/androidpublisher/v3/applications/com.example.app/orders/GPA.1:reviewrefund"
            ])
    }

    @Test func aSuccessThatIsNotGooglesAnswerIsAFailureSentAgainNextRun() throws {
        let (data, orders) = try Self.scenario()
        let proxy = try APIStub(
            play: [
                "package": "com.example.app", "orders": orders, "reviews": Self.reviews(["GPA.1", "GPA.2", "GPA.3"]),
                "review_raw": ["GPA.1": ["status": 200, "body": "<html>Log in to the network</html>"]],
            ])
        let journal = try TestFiles.temporaryDirectory("play-proxy") + "/journal.jsonl"
        let run = try Self.respond(data, journal: journal, stub: proxy)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stderr.contains("failed    prt-GPA.1  order GPA.1: HTTP 200 (that is not Google's answer: '<html>Log in"),
            "\(run.stderr)")
        let stub = try APIStub(play: ["package": "com.example.app", "orders": orders, "reviews": Self.reviews(["GPA.1"])])
        let next = try Self.respond(data, journal: journal, stub: stub)
        #expect(next.status == 0 && next.stdout.contains("sent      prt-GPA.1  order GPA.1: HTTP 200"), "\(next.stdout)")
    }

    @Test func eachStoreKeepsItsOwnJournalAndAWrongPackageOrFolderNeedsAPerson() throws {
        let (data, orders) = try Self.scenario()
        let stub = try APIStub(play: [
            "package": "com.example.app", "orders": orders, "reviews": Self.reviews(["GPA.1", "GPA.2", "GPA.3"]),
        ])
        let journal = try TestFiles.temporaryDirectory("play-own") + "/journal.jsonl"
        #expect(try Self.respond(data, journal: journal, stub: stub).status == 0)
        #expect(try TestFiles.read(journal).hasPrefix("{\"state\":\"missed\",\"journal_start\""))
        #expect(try TestFiles.read(journal).split(separator: "\n").first?.contains("\"store\":\"play\"") == true)
        let apple = try runTool([
            "respond", "--data", data, "--journal", journal, "--dry-run", "--trust-root", data + "/test-root.der",
        ])
        #expect(apple.status == 1 && apple.stderr.contains("this is the journal of respond --store play"), "\(apple.stderr)")
        let out = try TestFiles.temporaryDirectory("play-own-report")
        let report = try runTool([
            "report", "--data", data, "--out", out, "--month", "2026-10", "--allow-empty", "--journal", journal,
            "--trust-root", data + "/test-root.der",
        ])
        #expect(report.status == 1 && report.stderr.contains("give it to report --play-journal"), "\(report.stderr)")

        let other = try Self.respond(
            data, journal: journal + "-other", stub: stub, extra: ["--package-name", "com.example.other", "--summary", "--quiet"])
        #expect(other.status == 1, "\(other.stdout)\(other.stderr)")
        #expect(other.stderr.contains("com.example.app (5)"), "the package found, with its count: \(other.stderr)")
        #expect(other.stdout.hasSuffix("exit 1: refund reviews of another app in play/\n"), "\(other.stdout)")
        try FileManager.default.removeItem(atPath: data + "/play/notifications")
        let missing = try Self.respond(data, journal: journal, stub: stub)
        #expect(missing.status == 1 && missing.stderr.contains("play/notifications/ does not exist"), "\(missing.stderr)")
    }

    /// `report --play-journal`: each review of the window with what respond did about it, and
    /// what answering earned as Google voided orders since, worked out by hand.
    @Test func aReportTellsWhatAnsweringGooglesReviewsEarned() throws {
        let (data, orders) = try Self.scenario()
        var script: [String: Any] = ["package": "com.example.app", "orders": orders]
        script["reviews"] = Self.reviews(["GPA.1", "GPA.2", "GPA.3"])
        let stub = try APIStub(play: script)
        let journal = try TestFiles.temporaryDirectory("play-journal") + "/journal.jsonl"
        let run = try Self.respond(data, journal: journal, stub: stub)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // As fetch orders would: every reviewed order in play/orders/; then Google voids two of
        // them an hour from now, after the answers: GPA.1 (NEUTRAL sent) and GPA.2 (DECLINE sent).
        try TestFiles.write(
            orders.keys.sorted().map { F.json(orders[$0] ?? [:]) }.joined(separator: "\n") + "\n",
            to: data + "/play/orders/o.jsonl")
        let voids = [("GPA.1", 1), ("GPA.2", 2)].map { id, account in
            F.json([
                "purchaseToken": "tok-\(account)-\(id)", "orderId": id, "voidedTimeMillis": String(Self.now + Self.hour),
                "voidedReason": 7, "voidedSource": 2,
            ])
        }
        let voided = try TestFiles.read(data + "/play/voided/v.jsonl") + voids.joined(separator: "\n") + "\n"
        try TestFiles.write(voided, to: data + "/play/voided/v.jsonl")
        let out = try TestFiles.temporaryDirectory("report")
        let (from, to) = (Timestamp(milliseconds: Self.now - 2 * Self.day), Timestamp(milliseconds: Self.now + 2 * Self.day))
        let report = try runTool([
            "report", "--data", data, "--from", "\(from.civilDate)", "--to", "\(to.civilDate)", "--out", out,
            "--play-journal", journal, "--as-of", Self.iso(Self.now + 2 * Self.hour), "--quiet",
        ])
        #expect(report.status == 0, "\(report.stderr)")
        let folder = out + "/\(from.civilDate)_\(to.civilDate)/"
        let rows = try PlayReportTests.rows(folder + "refund_reviews.csv")
        // By notification: GPA.4 25 hours ago, GPA.5 4, GPA.3 3, then GPA.1 and GPA.2 an hour ago.
        #expect(rows.map { $0["order_id"] ?? "" } == ["GPA.4", "GPA.5", "GPA.3", "GPA.1", "GPA.2"])
        let byOrder = Dictionary(uniqueKeysWithValues: rows.map { ($0["order_id"] ?? "", $0) })
        // GPA.4's 24 hours ended before the journal began: missed, but not on respond's watch.
        #expect(byOrder["GPA.4"]?["answer_state"] == "missed" && byOrder["GPA.4"]?["before_journal"] == "true")
        #expect(byOrder["GPA.4"]?["past_respond_by"] == "true" && byOrder["GPA.3"]?["before_journal"] == "false")
        #expect(byOrder["GPA.5"]?["answer_state"] == "skipped" && byOrder["GPA.5"]?["outcome"] == "voided")
        #expect(byOrder["GPA.5"]?["void_reason"] == "remorse" && byOrder["GPA.5"]?["decided_as_preferred"] == "")
        #expect(byOrder["GPA.3"]?["sent_preference"] == "APPROVE" && byOrder["GPA.3"]?["outcome"] == "not_voided")
        #expect(byOrder["GPA.3"]?["answered_in_time"] == "true" && byOrder["GPA.3"]?["price_voided"] == "")
        #expect(byOrder["GPA.1"]?["sent_preference"] == "NEUTRAL" && byOrder["GPA.1"]?["void_reason"] == "chargeback")
        #expect(byOrder["GPA.1"]?["decided_as_preferred"] == "" && byOrder["GPA.1"]?["price_voided"] == "4.990000")
        #expect(byOrder["GPA.2"]?["sent_preference"] == "DECLINE" && byOrder["GPA.2"]?["decided_as_preferred"] == "false")
        #expect(rows.allSatisfy { $0["store"] == "google_play" && $0["price"] == "4.990000" })
        let record = try TestFiles.read(folder + "run.json")
        #expect(
            record.contains(
                "\"play_answering\": {\n    \"reviews\": 5,\n    \"answered\": 3,\n    \"answered_in_time\": 3,\n"
                    + "    \"voided_after_answer\": 2,\n    \"not_voided\": 1,\n    \"price_voided\": 9.980000,\n"
                    + "    \"price_not_voided\": 4.990000"), "\(record)")
        // Nothing needs a person: every review on respond's watch was answered in time or skipped.
        let page = try TestFiles.read(folder + "report.html")
        #expect(!page.contains("need attention") && page.contains("Answered within 24 hours: <b>3 of 5</b>"), "\(page)")
        // A journal named and not there is a mistake, not a journal that answered nothing.
        let missing = try runTool([
            "report", "--data", data, "--from", "\(from.civilDate)", "--to", "\(to.civilDate)", "--out", out,
            "--play-journal", journal + ".typo", "--quiet",
        ])
        #expect(missing.status == 2 && missing.stderr.contains("there is none at this path"), "\(missing.stderr)")
        // An Apple journal is not Google's: refused with what to do.
        let wrong = try runTool([
            "report", "--data", data, "--from", "\(from.civilDate)", "--to", "\(to.civilDate)", "--out", out,
            "--journal", journal, "--as-of", Self.iso(Self.now + 2 * Self.hour), "--quiet",
        ])
        #expect(wrong.status == 1 && wrong.stderr.contains("give it to report --play-journal"), "\(wrong.stderr)")
    }
}
