import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// Data of Xcode's StoreKit testing or of a local test server names transactions no Apple
/// server knows: respond answers it only at the local server `--api-url` names, never at
/// Apple's hosts with the app's real key.
extension RespondTests {
    /// The request of `data()`, but in `environment`'s data.
    func localData(_ environment: String, label: String = #function) throws -> String {
        var fixture = AppStoreFixture()
        let purchase = requestSigned - 2 * day
        fixture.products += "credits.500,Consumable,,500\n"
        let pack = AppStoreFixture.transaction(
            "2000000000000101", product: "credits.500", type: "Consumable", purchase: purchase, signed: purchase,
            extra: ["environment": environment])
        fixture.notify("ONE_TIME_CHARGE", uuid: "charge-1", signed: purchase, transaction: pack, environment: environment)
        fixture.link("a1", "2000000000000101")
        fixture.notify(
            "CONSUMPTION_REQUEST", uuid: "request-1", signed: requestSigned, transaction: pack, environment: environment,
            reason: "UNINTENDED_PURCHASE")
        fixture.consent = "account_id,consented,at\na1,true,\(Timestamp(milliseconds: purchase - day))\n"
        return try fixture.write(label)
    }

    @Test(arguments: ["LocalTesting", "Xcode"])
    func localTestingDataIsNeverAnsweredAtApplesHosts(environment: String) throws {
        let data = try localData(environment, label: "\(#function)\(environment)")
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let respond = [
            "respond", "--data", data, "--journal", journal, "--key", try privateTestKey(), "--key-id", "TEST123456",
            "--issuer-id", "issuer", "--bundle-id", "com.example.app", "--environment", environment, "--as-of", asOf,
        ]
        // Without --api-url, and with Apple's own host named: refused, with what to do, before
        // anything is read, journaled or shown as it would be sent.
        // Apple's host spelled otherwise (a trailing dot, a user name, a query, a fragment, a
        // percent sign, capitals) or Apple's network by address is Apple's too.
        let applesSpelledOtherwise = [
            "https://api.storekit.apple.com", "https://api.storekit.apple.com.", "https://user:pw@api.storekit.apple.com",
            "https://api.storekit.apple.com%2e", "https://api.storekit.apple.com?x", "https://api.storekit.apple.com#x",
            "https://api.storekit.apple.com..", "https://API.storekit-SANDBOX.apple.com./", "https://17.0.0.1",
            "https://[::ffff:17.253.144.10]", "https://[::ffff:11fd:900a]",
        ]
        for extra in [[], ["--dry-run"]] + applesSpelledOtherwise.map({ ["--api-url", $0, "--dry-run"] }) {
            let run = try runTool(respond + extra)
            #expect(run.status == 2, "\(extra): \(run.stdout)\(run.stderr)")
            #expect(
                run.stderr.contains("--environment \(environment)") && run.stderr.contains("--api-url")
                    && run.stderr.contains("local server"), "\(run.stderr)")
            #expect(!run.stdout.contains("would send"), "\(run.stdout)")
            #expect(!FileManager.default.fileExists(atPath: journal))
        }

        // With the local server named, the request is answered there.
        let stub = try APIStub([["status": 202]], label: "\(#function)\(environment)")
        let run = try runTool(respond + ["--api-url", stub.url])
        #expect(run.status == 0 && run.stdout.contains("1 sent"), "\(run.stdout)\(run.stderr)")
        #expect(stub.requests.map(\.path) == ["/inApps/v2/transactions/consumption/2000000000000101"])
    }

    /// A token goes in clear text only to this machine: a URL that reads as a loopback address
    /// but connects elsewhere is refused before anything is read.
    @Test func plainHTTPGoesOnlyToALoopbackAddress() throws {
        let data = try data()
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let respond = [
            "respond", "--data", data, "--journal", journal, "--key", try privateTestKey(), "--key-id", "TEST123456",
            "--issuer-id", "issuer", "--bundle-id", "com.example.app", "--as-of", asOf,
        ]
        for url in [
            "http://127.0.0.1@8.8.8.8", "http://127.0.0.1:80@8.8.8.8", "http://127.0.0.1.evil.com", "http://127.0.0.1%2e",
            "http://127.0.0.1#@apple.com", "http://8.8.8.8", "http://[::ffff:808:808]", "http://localhost.evil.com",
        ] {
            let run = try runTool(respond + ["--api-url", url])
            #expect(run.status == 2 && run.stderr.contains("--api-url"), "\(url): \(run.stdout)\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: journal), "\(url)")
        }
    }
}
