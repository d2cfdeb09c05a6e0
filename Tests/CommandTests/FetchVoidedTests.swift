import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// `fetch voided` against the stub of Google's API: the assertion Google checks, the token it
/// issues on every call, the pages as Google pages them, written whole or not at all, and read
/// back by `validate`; no secret printed.
@Suite("fetch voided: Google Play's refunds and chargebacks")
struct FetchVoidedTests {
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    let day = AppStoreFixture.day
    var since: Int64 { now - 10 * day }
    var until: Int64 { now - AppStoreFixture.hour }

    func void(_ token: String, order: String, reason: Int, source: Int = 0, quantity: Int? = nil) -> [String: Any] {
        var json: [String: Any] = [
            "kind": "androidpublisher#voidedPurchase", "purchaseToken": token, "orderId": order,
            "purchaseTimeMillis": String(since), "voidedTimeMillis": String(since + day), "voidedSource": source,
            "voidedReason": reason,
        ]
        if let quantity { json["voidedQuantity"] = quantity }
        return json
    }

    var twoPages: [[[String: Any]]] {
        [
            [void("tok-a", order: "GPA.1", reason: 1), void("tok-b", order: "GPA.2", reason: 7, source: 2)],
            [void("tok-c", order: "GPA.3", reason: 0, quantity: 2)],
        ]
    }

    func arguments(_ data: String, _ stub: APIStub, key: String) -> [String] {
        [
            "fetch", "voided", "--data", data, "--package-name", "com.example.app", "--service-account", key,
            "--since", String(since), "--until", String(until), "--api-url", stub.url,
        ]
    }

    func emptyData(_ label: String = #function) throws -> String {
        try AppStoreFixture().write(label)
    }

    /// The query of a logged request, by name.
    func query(_ request: APIStub.Request) -> [String: String] {
        var values: [String: String] = [:]
        for item in URLComponents(string: request.path)?.queryItems ?? [] { values[item.name] = item.value }
        return values
    }

    @Test func everyPageLandsInOneFileThatValidateReads() throws {
        let stub = try APIStub(play: ["package": "com.example.app", "voided_pages": twoPages])
        let data = try emptyData()
        let key = try privatePlayKey()
        let run = try runTool(arguments(data, stub, key: key))
        #expect(run.status == 0, "\(run.stderr)")
        let file = data + "/play/voided/voided-\(compact(since))-\(compact(until)).jsonl"
        #expect(run.stdout.contains("wrote \(file): 3 voided purchases in 2 pages"), "\(run.stdout)")
        let lines = try TestFiles.read(file).split(separator: "\n")
        #expect(lines.count == 2, "Google's pretty-printed pages, one a line")
        let requests = stub.requests
        #expect(requests.map(\.note) == ["issued", "page 0", "page 1"], "one token for the whole listing")
        #expect(requests.first?.path == "/token")
        #expect(
            requests.first?.body.hasPrefix("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=") == true)
        let first = query(requests[1])
        #expect(first["startTime"] == String(since) && first["endTime"] == String(until))
        #expect(first["type"] == "1" && first["includeQuantityBasedPartialRefund"] == "true" && first["maxResults"] == "1000")
        #expect(first["token"] == nil && query(requests[2])["token"] == "page-1")
        #expect(requests[1].path.hasPrefix("/androidpublisher/v3/applications/com.example.app/purchases/voidedpurchases?"))
        let bearer = requests[1].headers["authorization"] ?? ""
        #expect(bearer.hasPrefix("Bearer ya29.stub-") && requests[2].headers["authorization"] == bearer)
        // Nothing secret is said: not the token, not the assertion, not the key.
        let said = run.stdout + run.stderr
        #expect(!said.contains("ya29.") && !said.contains("eyJ") && !said.contains("PRIVATE KEY"))
        #expect(
            FileManager.default.fileExists(
                atPath: data + "/.refund-cost-fetch/\(URL(fileURLWithPath: file).lastPathComponent).partial") == false)

        let validate = try runTool(["validate", "--data", data])
        #expect(validate.status == 0, "\(validate.stdout)")
        #expect(
            validate.stdout.contains(PlayInputTests.row("voided: all / chargebacks / partial", "3 / 1 / 1")), "\(validate.stdout)"
        )
        #expect(
            validate.stdout.contains(
                PlayInputTests.row("lines read, by folder", "notifications 0, voided 2, orders 0, purchases 0")))
    }

    @Test func aPageGoogleFailsOnceIsAskedAgainAndARefusalLeavesNothing() throws {
        let flaky = try APIStub(
            play: ["package": "com.example.app", "voided_pages": twoPages, "failures": [["page": 1, "status": 503, "times": 1]]])
        let data = try emptyData()
        let key = try privatePlayKey()
        let retried = try runTool(arguments(data, flaky, key: key))
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(flaky.requests.map(\.note) == ["issued", "page 0", "failed", "page 1"])

        let refusing = try APIStub(
            play: ["package": "com.example.app", "voided_pages": twoPages, "failures": [["page": 1, "status": 400, "times": 9]]])
        let other = try emptyData("refused")
        let refused = try runTool(arguments(other, refusing, key: key))
        #expect(refused.status == 1)
        let file = other + "/play/voided/voided-\(compact(since))-\(compact(until)).jsonl"
        #expect(
            refused.stderr.contains(
                "(HTTP 400): 'FAILED_PRECONDITION: stub failure'; 1 page had come, nothing was written to \(file)"),
            "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(refusing.requests.map(\.note) == ["issued", "page 0", "failed"], "a refusal is not asked again")
    }

    @Test func aTokenGoogleExpiresMidListingIsRenewedOnce() throws {
        let stub = try APIStub(play: ["package": "com.example.app", "voided_pages": twoPages, "expire_tokens_after": 2])
        let data = try emptyData()
        let run = try runTool(arguments(data, stub, key: try privatePlayKey()))
        #expect(run.status == 0, "\(run.stderr)")
        let requests = stub.requests
        #expect(requests.map(\.note) == ["issued", "page 0", "unauthenticated", "issued", "page 1"])
        #expect(requests[4].headers["authorization"] != requests[1].headers["authorization"])
    }

    @Test func aRetryAfterNoClockCanWaitIsWaitedAsABackoffNotCrashedOn() throws {
        let stub = try APIStub(
            play: [
                "package": "com.example.app", "voided_pages": twoPages,
                "failures": [["page": 0, "status": 429, "times": 1, "retry_after": "inf"]],
            ])
        let data = try emptyData()
        let run = try runTool(arguments(data, stub, key: try privatePlayKey()))
        #expect(run.status == 0, "\(run.stderr)")
        let notes = stub.requests.map(\.note)
        #expect(notes == ["issued", "failed", "page 0", "page 1"])
    }

    @Test func aServerEchoingTheTokenGetsNothingKeptAndNothingShown() throws {
        let stub = try APIStub(play: ["package": "com.example.app", "voided_pages": twoPages, "echo_token": true])
        let data = try emptyData()
        let run = try runTool(arguments(data, stub, key: try privatePlayKey()))
        #expect(run.status == 1)
        #expect(run.stderr.contains("holds this run's credentials, which Google never sends back: not kept"), "\(run.stderr)")
        #expect(!(run.stdout + run.stderr).contains("ya29."))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: data + "/play/voided")) ?? [] == [])
    }

    @Test func aLinkWhereAFetchWritesIsRefused() throws {
        let stub = try APIStub(play: ["package": "com.example.app", "voided_pages": twoPages])
        let data = try emptyData()
        let elsewhere = try TestFiles.temporaryDirectory("elsewhere")
        try FileManager.default.createDirectory(atPath: data + "/play", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: data + "/play/voided", withDestinationPath: elsewhere)
        let run = try runTool(arguments(data, stub, key: try privatePlayKey()))
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(data)/play/voided is a link or not a folder"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        #expect(stub.requests.isEmpty, "refused before any call")
    }

    @Test func aKeyGoogleDoesNotKnowStopsBeforeAnyListing() throws {
        // The stub checks assertions against another key's modulus: this key's signature fails.
        let stub = try APIStub(play: ["package": "com.example.app", "modulus": String(repeating: "c3", count: 256)])
        let data = try emptyData()
        let run = try runTool(arguments(data, stub, key: try privatePlayKey()))
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("Google refused the service account (400): 'invalid_grant' ('Invalid JWT Signature.')"),
            "\(run.stderr)")
        #expect(stub.requests.map(\.note) == ["refused"])
        #expect((try? FileManager.default.contentsOfDirectory(atPath: data + "/play/voided")) ?? [] == [])
    }

    @Test func aDryRunSaysWhatItWouldSendAndSendsNothing() throws {
        let stub = try APIStub(play: ["package": "com.example.app"])
        let data = try emptyData()
        let run = try runTool(arguments(data, stub, key: try privatePlayKey()) + ["--dry-run"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains(
                "would exchange at \(stub.url)/token: JWT header {\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"0123456789abcdef0123456789abcdef01234567\"}"
            ))
        #expect(
            run.stdout.contains(
                "\"iss\":\"refund-cost@refund-cost-tests.iam.gserviceaccount.com\",\"scope\":\"https://www.googleapis.com/auth/androidpublisher\""
            ))
        #expect(
            run.stdout.contains(
                "would send GET \(stub.url)/androidpublisher/v3/applications/com.example.app/purchases/voidedpurchases?startTime=\(since)&endTime=\(until)"
            ))
        #expect(stub.requests.isEmpty)
        #expect(FileSystem.kind(data + "/play") == .missing)
    }

    @Test func whatCannotWorkIsRefusedBeforeAnyCall() throws {
        let data = try emptyData()
        let key = try privatePlayKey()
        let base = ["fetch", "voided", "--data", data, "--package-name", "com.example.app", "--service-account", key]
        let old = try runTool(base + ["--since", String(now - 31 * day)])
        #expect(old.status == 2 && old.stderr.contains("a time Google still lists: 30 days back"), "\(old.stderr)")
        let path = try runTool([
            "fetch", "voided", "--data", data, "--package-name", "com.example.app/../x", "--service-account", key,
        ])
        #expect(path.status == 2 && path.stderr.contains("an Android package name"), "\(path.stderr)")
        let missing = try runTool(["fetch", "voided", "--data", data])
        #expect(missing.status == 2 && missing.stderr.contains("--package-name and --service-account"), "\(missing.stderr)")

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key)
        let exposed = try runTool(base)
        #expect(exposed.status == 2 && exposed.stderr.contains("run chmod 600 \(key)"), "\(exposed.stderr)")

        let apple = try privateTestKey()
        let notJSON = try runTool([
            "fetch", "voided", "--data", data, "--package-name", "com.example.app", "--service-account", apple,
        ])
        #expect(notJSON.status == 2 && notJSON.stderr.contains("not JSON"), "\(notJSON.stderr)")

        var account =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture("api/play-service-account.json"))))
            as? [String: Any] ?? [:]
        account["token_uri"] = "https://tokens.example.com/token"
        let elsewhere = try TestFiles.temporaryDirectory("elsewhere") + "/key.json"
        try JSONSerialization.data(withJSONObject: account).write(to: URL(fileURLWithPath: elsewhere))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: elsewhere)
        let redirected = try runTool([
            "fetch", "voided", "--data", data, "--package-name", "com.example.app", "--service-account", elsewhere,
        ])
        #expect(
            redirected.status == 2 && redirected.stderr.contains("the signed assertion goes to Google only"),
            "\(redirected.stderr)")
        #expect(!(old.stderr + exposed.stderr + redirected.stderr).contains("PRIVATE KEY"))
    }

    /// `20261001T000000Z`, as fetch names its files.
    func compact(_ milliseconds: Int64) -> String {
        let text = Timestamp(milliseconds: milliseconds).description
        return text.prefix(19).filter { $0 != "-" && $0 != ":" } + "Z"
    }
}
