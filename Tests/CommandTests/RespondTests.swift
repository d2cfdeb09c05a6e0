import Foundation
import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

/// `respond` against the stub of Apple's API, in every scripted case: exactly the expected
/// requests, never two different bodies for one request.
@Suite("respond: answers inside Apple's 12 hours")
struct RespondTests {
    let october = AppStoreFixture.october
    let day = AppStoreFixture.day
    let hour = AppStoreFixture.hour

    /// A pack of 500 credits bought on October 2; 100 used; a refund request signed October 4,
    /// 12:00, with the customer's consent.
    func data(consent: Bool = true, signed: Int64? = nil, label: String = #function) throws -> String {
        var fixture = AppStoreFixture()
        let requestSigned = signed ?? self.requestSigned
        let purchase = requestSigned - 2 * day - 12 * hour
        fixture.products += "credits.500,Consumable,,500\n"
        let pack = AppStoreFixture.transaction(
            "2000000000000101", product: "credits.500", type: "Consumable", purchase: purchase, signed: purchase)
        fixture.notify("ONE_TIME_CHARGE", uuid: "charge-1", signed: purchase, transaction: pack)
        fixture.link("a1", "2000000000000101")
        fixture.cost("a1", at: purchase + hour, "0.50", credits: 100)
        fixture.notify(
            "CONSUMPTION_REQUEST", uuid: "request-1", signed: requestSigned, transaction: pack, reason: "UNINTENDED_PURCHASE")
        fixture.consent = "account_id,consented,at\na1,\(consent),\(Timestamp(milliseconds: purchase - day))\n"
        return try fixture.write(label)
    }

    var requestSigned: Int64 { october + 3 * day + 12 * hour }
    /// An hour after the request: its answer is due within 11 more hours.
    var asOf: String { Timestamp(milliseconds: requestSigned + hour).description }

    func respond(_ data: String, stub: APIStub, journal: String, extra: [String] = [], key: String? = nil) throws -> ToolRun {
        try runTool(
            [
                "respond", "--data", data, "--journal", journal, "--key", try key ?? privateTestKey(), "--key-id", "TEST123456",
                "--issuer-id", "57246542-96fe-1a63-e053-0824d011072a", "--bundle-id", "com.example.app", "--api-url", stub.url,
                "--as-of", asOf, "--max-wait", "20s",
            ] + extra)
    }

    /// The states of the journal's events, in order (its first line, which names no request, aside).
    func journalStates(_ path: String) throws -> [String] {
        try journalLines(path).filter { $0["notificationUUID"] != nil }.compactMap { $0["state"] as? String }
    }

    func journalLines(_ path: String) throws -> [[String: Any]] {
        try TestFiles.read(path).split(separator: "\n").compactMap { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    @Test func a202IsSentOnceWithTheReportsAnswerAndAValidToken() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stderr)\n\(run.stdout)")
        #expect(run.stdout.contains("1 sent"), "\(run.stdout)")
        let requests = stub.requests
        try #require(requests.count == 1)
        let request = requests[0]
        #expect(request.method == "PUT")
        #expect(request.path == "/inApps/v2/transactions/consumption/2000000000000101")
        #expect(request.headers["content-type"] == "application/json")

        // The body, field by field: the answer the report gives, optional fields absent, never null.
        let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any])
        #expect(body["customerConsented"] as? Bool == true)
        #expect(body["consumptionPercentage"] as? Int == 20_000, "100 of 500 credits used")
        #expect(body["deliveryStatus"] as? String == "DELIVERED")
        #expect(body["sampleContentProvided"] as? Bool == false)
        #expect(!request.body.contains("null"))
        let out = try TestFiles.temporaryDirectory("report")
        let report = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--as-of", asOf, "--quiet"])
        #expect(report.status == 0, "\(report.stderr)")
        let prepared = try TestFiles.read(out + "/2026-10/consumption_responses.jsonl")
        #expect(prepared.contains("\"body\":" + request.body), "the report's body, byte for byte: \(prepared) vs \(request.body)")

        // The token: ES256, the key id, JWT; the claims Apple requires; signed by the key.
        let authorization = try #require(request.headers["authorization"])
        #expect(authorization.hasPrefix("Bearer "))
        let parts = authorization.dropFirst("Bearer ".count).split(separator: ".")
        try #require(parts.count == 3)
        let header = try #require(try JSONSerialization.jsonObject(with: base64URLDecode(parts[0]) ?? Data()) as? [String: Any])
        #expect(
            header["alg"] as? String == "ES256" && header["kid"] as? String == "TEST123456" && header["typ"] as? String == "JWT")
        let claims = try #require(try JSONSerialization.jsonObject(with: base64URLDecode(parts[1]) ?? Data()) as? [String: Any])
        #expect(claims["iss"] as? String == "57246542-96fe-1a63-e053-0824d011072a")
        #expect(claims["aud"] as? String == "appstoreconnect-v1" && claims["bid"] as? String == "com.example.app")
        let issued = try #require(claims["iat"] as? Int)
        #expect(claims["exp"] as? Int == issued + 300)
        #expect(abs(Double(issued) - Date().timeIntervalSince1970) < 120, "timed by the real clock, not --as-of")
        let key = try #require(
            ECPrivateKey(pem: Array(try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture("api/test-key.p8"))))))
        let signature = try #require(base64URLDecode(parts[2]))
        let der = try #require(Array(signature).withUnsafeBytes { DER.ecdsaSignature(jose: $0) })
        let signed = Array((parts[0] + "." + parts[1]).utf8)
        let publicKey = try #require(key.publicKey)
        #expect(signed.withUnsafeBytes { publicKey.verifiesES256(signature: der, message: $0) })

        #expect(try journalStates(journal) == ["sending", "sent"])
        // Nothing more to answer: a rerun sends nothing.
        let again = try respond(data, stub: stub, journal: journal)
        #expect(again.status == 0)
        #expect(stub.requests.count == 1)
        #expect(!run.stdout.contains(authorization) && !run.stderr.contains("Bearer"))
    }

    @Test func theReportKnowsWhatWasAnswered() throws {
        // The journal holds real times: a request signed an hour ago, answered now.
        let signed = Int64(Date().timeIntervalSince1970 * 1000) - hour
        let data = try data(signed: signed)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let now = Timestamp(milliseconds: signed + hour).description
        #expect(try respond(data, stub: stub, journal: journal, extra: ["--as-of", now]).status == 0)
        // Given --as-of, the journal says so beside each event's real time.
        #expect(try TestFiles.read(journal).contains("\"as_of\":\"\(now)\""))
        let out = try TestFiles.temporaryDirectory("report")
        let day = Timestamp(milliseconds: signed).civilDate
        let window = ["--from", "\(day)", "--to", "\(Timestamp(milliseconds: signed + self.day).civilDate)"]
        let label = "\(day)_\(Timestamp(milliseconds: signed + self.day).civilDate)"
        let run = try runTool(
            ["report", "--data", data] + window + ["--out", out, "--journal", journal, "--as-of", now])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("answered within 12 hours 1 of 1 (from the journal)"))
        let csv = try TestFiles.read(out + "/\(label)/consumption_requests.csv").split(separator: "\n")
        #expect(
            csv[0].hasSuffix(
                ",past_respond_by,answer_state,answered_at,answered_in_time,apple_error_code,sent_preference,decided_as_preferred,"
                    + "price,price_kept,price_refunded,before_journal,decided_before_answer,store"))
        // In time, no Apple error; GRANT_PRORATED sent (100 of 500 credits used), no decision yet, the price 9.99.
        #expect(
            csv[1].contains(",sent,") && csv[1].hasSuffix(",true,,GRANT_PRORATED,,9.990000,,,false,false,app_store"), "\(csv[1])")
        #expect(try TestFiles.read(out + "/\(label)/run.json").contains("\"consumption_answered_in_time\": 1"))
        #expect(try TestFiles.read(out + "/\(label)/report.html").contains("Answered within 12 hours: <b>1 of 1</b>"))

        // Without the journal nothing is known, and the page says so in a sentence, not an alarm.
        let plain = try TestFiles.temporaryDirectory("plain")
        #expect(try runTool(["report", "--data", data] + window + ["--out", plain, "--as-of", now, "--quiet"]).status == 0)
        let page = try TestFiles.read(plain + "/\(label)/report.html")
        #expect(page.contains("Whether these requests were answered in time is not known here"))
        #expect(!page.contains("<p class=\"alert\">"))
        #expect(!(try TestFiles.read(plain + "/\(label)/consumption_requests.csv")).contains("answer_state"))
    }

    @Test func aGeneratedSetHasOpenRequestsAndASecondRunHasNothingToDo() throws {
        let data = try TestFiles.temporaryDirectory("generated") + "/data"
        let generate = try runTool([
            "generate", "--out", data, "--accounts", "400", "--seed", "5", "--open-requests", "4", "--quiet",
        ])
        #expect(generate.status == 0, "\(generate.stderr)")
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let run = try respond(data, stub: stub, journal: journal, extra: ["--as-of", "2026-11-01T00:00:00Z"])
        #expect(run.stdout.contains("4 open requests: 4 sent"), "\(run.stdout)")
        #expect(stub.requests.count == 4)
        #expect(Set(stub.requests.map(\.path)).count == 4)
    }

    @Test func aRunWithNothingNewReadsNothing() throws {
        // Signed an hour ago, by the real clock: respond runs as of now, as from cron.
        let data = try data(signed: Int64(Date().timeIntervalSince1970 * 1000) - hour)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let arguments = [
            "respond", "--data", data, "--journal", journal, "--key", try privateTestKey(), "--key-id", "TEST123456",
            "--issuer-id", "issuer", "--bundle-id", "com.example.app", "--api-url", stub.url,
        ]
        let first = try runTool(arguments)
        #expect(first.status == 0 && first.stdout.contains("1 sent"), "\(first.stdout)\(first.stderr)")
        let second = try runTool(arguments)
        #expect(second.stdout.contains("nothing new since the last run"), "\(second.stdout)")
        // A new notification file is news: everything is read again.
        try FileManager.default.copyItem(atPath: data + "/notifications/n.jsonl", toPath: data + "/notifications/n2.jsonl")
        let third = try runTool(arguments)
        #expect(!third.stdout.contains("nothing new"), "\(third.stdout)")
        #expect(stub.requests.count == 1)
    }

    @Test(arguments: [
        (400, 4_000_185, "refused"), (404, 4_040_010, "refused"),
    ])
    func aRefusalIsJournaledWithApplesCode(status: Int, code: Int, state: String) throws {
        let data = try data(label: "\(#function)\(status)")
        let stub = try APIStub(
            [["status": status, "body": ["errorCode": code, "errorMessage": "stub says no"]]], label: "\(#function)\(status)")
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 1)
        // A refusal needs a person: it goes to stderr, which cron mails.
        #expect(run.stderr.contains("HTTP \(status), Apple error \(code)"), "\(run.stderr)")
        #expect(try journalStates(journal) == ["sending", state])
        #expect(try TestFiles.read(journal).contains("\"apple_error_code\":\(code)"))
        _ = try respond(data, stub: stub, journal: journal)
        #expect(stub.requests.count == 1, "a refused request is not sent again")
    }

    @Test func a401StopsAndSaysWhatToCheckWithoutTheToken() throws {
        let data = try data()
        let stub = try APIStub([["status": 401]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 1)
        #expect(run.stderr.contains("check --key-id and --issuer-id"), "\(run.stderr)")
        let journaled = try TestFiles.read(journal)
        #expect(!run.stderr.contains("eyJ") && !run.stdout.contains("eyJ") && !journaled.contains("eyJ"))
        #expect(stub.requests.count == 1)
    }

    @Test func a429WaitsForRetryAfterThenSends() throws {
        let data = try data()
        let stub = try APIStub([["status": 429, "headers": ["Retry-After": "+1200"]], ["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let started = Date()
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(stub.requests.count == 2)
        #expect(Date().timeIntervalSince(started) >= 1.0, "it waited for Retry-After")
        #expect(try journalStates(journal) == ["sending", "sent"])
    }

    @Test func serverErrorsAndACutResponseAreRetried() throws {
        let data = try data()
        let stub = try APIStub([
            ["status": 500], ["status": 500, "body": ["errorCode": 5_000_001, "errorMessage": "internal"]],
            ["status": 503, "drop": true, "body": ["x": String(repeating: "y", count: 200)]], ["status": 202],
        ])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)")
        let bodies = stub.requests.map(\.body)
        #expect(bodies.count == 4 && Set(bodies).count == 1, "the same body every time")
    }

    @Test func aResponseSlowerThanTheWaitFails() throws {
        let data = try data()
        let stub = try APIStub([["status": 202, "delay": 6]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let started = Date()
        let run = try respond(data, stub: stub, journal: journal, extra: ["--max-wait", "2s"])
        #expect(run.status == 1)
        #expect(Date().timeIntervalSince(started) < 12)
        #expect(try journalStates(journal) == ["sending", "failed"])
        #expect(run.stdout.contains("failed"), "\(run.stdout)")
    }

    @Test func aRunKilledMidRequestSendsTheSameBodyAgain() throws {
        let data = try data()
        let slow = try APIStub([["status": 202, "delay": 30]], label: "slow")
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let process = Process()
        process.executableURL = toolExecutable()
        process.arguments = withTestRoot([
            "respond", "--data", data, "--journal", journal, "--key", try privateTestKey(), "--key-id", "TEST123456",
            "--issuer-id", "issuer", "--bundle-id", "com.example.app", "--api-url", slow.url, "--as-of", asOf,
        ])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while slow.requests.isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(try journalStates(journal) == ["sending"])
        let first = try #require(slow.requests.first).body

        // More use since: a recomputed answer would differ; the recorded one goes again.
        try TestFiles.write(
            try TestFiles.read(data + "/costs/costs.csv")
                + "\(Timestamp(milliseconds: requestSigned + 10 * 60_000)),a1,compute,1.00,USD,300,credit\n",
            to: data + "/costs/costs.csv")
        let stub = try APIStub([["status": 202]])
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(stub.requests.map(\.body) == [first])
        #expect(try journalStates(journal) == ["sending", "sending", "sent"])
    }

    @Test func withoutConsentNothingIsSent() throws {
        let data = try data(consent: false)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0)
        #expect(stub.requests.isEmpty)
        #expect(try journalStates(journal) == ["skipped"])
        #expect(try TestFiles.read(journal).contains("\"reason\":\"no consent\""))
    }

    @Test func aRequestPastItsTwelveHoursIsMissedOnce() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        // The journal began at the request's signing: its 12 hours ended 13 hours later, on the journal's watch.
        let started = Timestamp(milliseconds: requestSigned).description
        let late = Timestamp(milliseconds: requestSigned + 13 * hour).description
        let run = try respond(data, stub: stub, journal: journal, extra: ["--as-of", late, "--start", started])
        #expect(run.status == 1)
        #expect(stub.requests.isEmpty)
        #expect(try journalStates(journal) == ["missed"])
        let again = try respond(data, stub: stub, journal: journal, extra: ["--as-of", late])
        let states = try journalStates(journal)
        #expect(again.status == 0 && states == ["missed"])
    }

    @Test func aFirstRunCountsWhatEndedBeforeTheJournalInOneLine() throws {
        // Two requests whose 12 hours ended before the first run, one still open.
        var fixture = AppStoreFixture()
        fixture.products += "credits.500,Consumable,,500\n"
        let now = requestSigned + 30 * hour
        for (number, signed) in [(1, requestSigned), (2, requestSigned + 5 * hour), (3, now - hour)] {
            let id = "200000000000010\(number)"
            let pack = AppStoreFixture.transaction(
                id, product: "credits.500", type: "Consumable", purchase: signed - day, signed: signed - day)
            fixture.notify("ONE_TIME_CHARGE", uuid: "charge-\(number)", signed: signed - day, transaction: pack)
            fixture.link("a\(number)", id)
            fixture.notify(
                "CONSUMPTION_REQUEST", uuid: "request-\(number)", signed: signed, transaction: pack, reason: "UNINTENDED_PURCHASE"
            )
        }
        fixture.consent =
            "account_id,consented,at\na1,true,2026-01-01T00:00:00Z\na2,true,2026-01-01T00:00:00Z\na3,true,2026-01-01T00:00:00Z\n"
        let data = try fixture.write()
        let stub = try APIStub([["status": 202]])
        let folder = try TestFiles.temporaryDirectory("journal") + "/not/made/yet"
        let journal = folder + "/journal.jsonl"
        let asOf = Timestamp(milliseconds: now).description
        let run = try respond(data, stub: stub, journal: journal, extra: ["--as-of", asOf])
        #expect(run.status == 0, "every miss predates the journal: \(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("1 sent") && run.stdout.contains("0 missed"), "\(run.stdout)")
        #expect(run.stdout.contains("missed   2 requests whose 12 hours ended before this journal began"), "\(run.stdout)")
        #expect(stub.requests.map(\.path) == ["/inApps/v2/transactions/consumption/2000000000000103"])
        let lines = try journalLines(journal)
        let first = try #require(lines.first)
        #expect(first["state"] as? String == "missed" && first["count"] as? Int == 2)
        #expect(first["oldest"] as? String == Timestamp(milliseconds: requestSigned).description)
        #expect(first["newest"] as? String == Timestamp(milliseconds: requestSigned + 5 * hour).description)
        #expect(first["journal_start"] as? String == asOf)
        #expect(try journalStates(journal) == ["sending", "sent"])
        // The journal and the folders made for it are their owner's only.
        for path in [journal, folder, folder + "/.."] {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode.map { $0 & 0o077 } == 0, "\(path): \(String(mode ?? 0, radix: 8))")
        }
        // A later run neither counts them again nor misses them one by one.
        let lineCount = try journalLines(journal).count
        let later = try respond(
            data, stub: stub, journal: journal, extra: ["--as-of", Timestamp(milliseconds: now + hour).description])
        #expect(later.status == 0, "\(later.stdout)")
        #expect(try journalLines(journal).count == lineCount)
    }

    @Test func aStartInThePastMissesWhatEndedSinceOneByOne() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let late = Timestamp(milliseconds: requestSigned + 13 * hour).description
        let future = Timestamp(milliseconds: requestSigned + 14 * hour).description
        let refused = try respond(data, stub: stub, journal: journal, extra: ["--as-of", late, "--start", future])
        #expect(refused.status == 2 && refused.stderr.contains("--start"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: journal))
        let before = Timestamp(milliseconds: requestSigned + 11 * hour).description
        let run = try respond(data, stub: stub, journal: journal, extra: ["--as-of", late, "--start", before])
        #expect(run.status == 1 && run.stdout.contains("1 missed"), "\(run.stdout)")
        let lines = try journalLines(journal)
        #expect(lines.first?["state"] as? String == "started" && lines.first?["journal_start"] as? String == before)
        #expect(try journalStates(journal) == ["missed"])
    }

    @Test func aSecondRunOnTheJournalStops() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let lock = open(journal + ".lock", O_RDWR | O_CREAT, 0o600)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        _ = "4242\n".withCString { write(lock, $0, 5) }
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "nothing for cron to mail about: \(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.split(separator: "\n").count == 1)
        #expect(run.stdout.contains("another run (process 4242) is answering"), "\(run.stdout)")
        #expect(stub.requests.isEmpty)
        let quiet = try respond(data, stub: stub, journal: journal, extra: ["--quiet"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)

        // Held since longer than --max-wait (20 s here) and the margin: it looks stuck.
        let held = Date().addingTimeInterval(-16 * 60)
        try FileManager.default.setAttributes([.modificationDate: held], ofItemAtPath: journal + ".lock")
        let stuck = try respond(data, stub: stub, journal: journal)
        #expect(stuck.status == 1)
        #expect(stuck.stderr.contains("looks stuck") && stuck.stderr.contains("ps -p 4242"), "\(stuck.stderr)")
        #expect(stub.requests.isEmpty)
    }

    @Test func aDamagedJournalLineIsRefusedWithItsNumber() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        try TestFiles.write(
            "{\"notificationUUID\":\"x\",\"transactionId\":\"1\",\"state\":\"sent\",\"at\":\"2026-10-04T12:00:00Z\",\"attempt\":1}\n{\"notificationUUID\": \n",
            to: journal)
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 1)
        #expect(run.stderr.contains("journal.jsonl:2: error:"), "\(run.stderr)")
        #expect(stub.requests.isEmpty)
    }

    @Test func aDryRunPrintsTheRequestAndChangesNothing() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let run = try respond(data, stub: stub, journal: journal, extra: ["--dry-run"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("would send PUT \(stub.url)/inApps/v2/transactions/consumption/2000000000000101"))
        #expect(run.stdout.contains("\"customerConsented\":true"))
        #expect(run.stdout.contains("JWT header {\"alg\":\"ES256\",\"kid\":\"TEST123456\",\"typ\":\"JWT\"}"), "\(run.stdout)")
        #expect(run.stdout.contains("\"aud\":\"appstoreconnect-v1\",\"bid\":\"com.example.app\""))
        #expect(!run.stdout.contains("eyJ"))
        #expect(stub.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: journal))
    }

    @Test func theKeyAndTheURLAreChecked() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let open = try privateTestKey()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: open)
        let exposed = try respond(data, stub: stub, journal: journal, key: open)
        #expect(exposed.status == 2 && exposed.stderr.contains("chmod 600"), "\(exposed.stderr)")
        let wrong = try privateTestKey("wrong")
        try FileManager.default.removeItem(atPath: wrong)
        try FileManager.default.copyItem(atPath: TestFiles.fixture("api/wrong-curve.p8"), toPath: wrong)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: wrong)
        #expect(try respond(data, stub: stub, journal: journal, key: wrong).status == 2)
        let remote = try runTool([
            "respond", "--data", data, "--journal", journal, "--key", try privateTestKey("remote"), "--key-id", "K",
            "--issuer-id", "I", "--bundle-id", "com.example.app", "--api-url", "http://192.0.2.1:8080",
        ])
        #expect(remote.status == 2 && remote.stderr.contains("http:// to a loopback address"))
        #expect(stub.requests.isEmpty)
    }
}
