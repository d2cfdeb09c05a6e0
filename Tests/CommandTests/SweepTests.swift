import Foundation
import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

/// Each defect a hostile sweep found, as a user meets it: through the real command line, on
/// real files, with the figure or message worked out by hand.
@Suite("Hostile sweep")
struct SweepTests {
    static let header = "timestamp,account_id,category,cost,currency\n"
    let october = AppStoreFixture.october
    let day = AppStoreFixture.day

    /// A folder with one cost file (and optional extra files), nothing else.
    func folder(_ costs: String, files: [String: String] = [:], label: String = #function) throws -> String {
        let root = try TestFiles.temporaryDirectory(label)
        try TestFiles.write(costs, to: root + "/costs/costs.csv")
        for (name, text) in files { try TestFiles.write(text, to: root + "/" + name) }
        return root
    }

    @Test func aConvertedRowIsRoundedOnceToSixDecimals() throws {
        // 0.035672 EUR at 1.087001 is 0.038775499672 USD: 0.038775, not 0.038775500 and then 0.038776.
        let data = try folder(
            Self.header + "2026-10-05T10:00:00Z,a1,compute,0.035672,EUR\n",
            files: ["fx.csv": "date,currency,rate\n2026-10-01,EUR,1.087001\n"])
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try TestFiles.read(out + "/2026-10/cost_by_day.csv").contains("2026-10-05,compute,unlinked,USD,1,0.038775\n"))
    }

    @Test(arguments: ["9223372036.854775807", "9223372036.854775806", "9223372036.854775001", "-9223372036.854775807"])
    func anAmountPastWhatSixDecimalsHoldIsARejectNotACrash(value: String) throws {
        let data = try folder(Self.header + "2026-10-05T10:00:00Z,a1,compute,\(value),USD\n")
        for command in [["validate", "--data", data], ["report", "--data", data, "--month", "2026-10", "--out", data + "-out"]] {
            let run = try runTool(command + ["--quiet"])
            #expect(run.status == 1, "\(command[0]) \(value): status \(run.status)")
            #expect(run.stderr.contains("costs.csv:2: error: cost \"\(value)\": amount out of range"), "\(run.stderr)")
        }
        let largest = try folder(
            Self.header + "2026-10-05T10:00:00Z,a1,compute,9223372036.854775,USD\n", label: #function + "max")
        #expect(try runTool(["validate", "--data", largest, "--quiet"]).status == 0)
    }

    @Test func aDayOfBillionsDrawsThePage() throws {
        var rows = Self.header
        for hour in 10..<20 { rows += "2026-10-05T\(hour):00:00Z,a1,compute,600000000,KRW\n" }
        let data = try folder(rows)
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--currency", "KRW", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try TestFiles.read(out + "/2026-10/report.html").contains("data-chart"))
        let one = try folder(Self.header + "2026-10-05T10:00:00Z,a1,compute,7000000000,USD\n", label: #function + "usd")
        #expect(try runTool(["report", "--data", one, "--month", "2026-10", "--out", out, "--quiet"]).status == 0)
    }

    @Test func aGzipBombOfOneFieldIsRefusedInLittleMemory() throws {
        let root = try TestFiles.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: root + "/costs", withIntermediateDirectories: true)
        // 64 MiB of one quoted account_id, gzipped to well under a megabyte.
        let script =
            "import gzip,sys\nwith gzip.open(sys.argv[1],'wb') as f:\n f.write(b'timestamp,account_id,category,cost\\n2026-10-05T10:00:00Z,\"')\n"
            + " for _ in range(64): f.write(b'a'*(1<<20))\n f.write(b'\",c,1\\n')\n"
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, root + "/costs/bomb.csv.gz"]
        try python.run()
        python.waitUntilExit()
        let run = try runTool(["validate", "--data", root, "--quiet"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("bomb.csv.gz:2: error: malformed CSV: a field longer than 4 MiB"), "\(run.stderr)")
    }

    // MARK: Whose data it is

    /// A decoded REFUND of another app, for a transaction our account holds.
    func otherAppsDecodedRefund(bundle: String?) throws -> String {
        var fixture = AppStoreFixture()
        let purchase = october - 20 * day
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "n1", signed: purchase,
            transaction: AppStoreFixture.transaction("t1", purchase: purchase, signed: purchase))
        fixture.link("a1", "t1")
        fixture.cost("a1", at: october + 10 * day, "1.00")
        var transaction = AppStoreFixture.transaction(
            "t1", purchase: purchase, signed: october + 5 * day, extra: ["revocationDate": october + 5 * day])
        var data: [String: Any] = ["environment": "Production", "signedTransactionInfo": transaction]
        if let bundle {
            transaction["bundleId"] = bundle
            data["bundleId"] = bundle
            data["appAppleId"] = 999
            data["signedTransactionInfo"] = transaction
        }
        let payload: [String: Any] = [
            "notificationType": "REFUND", "notificationUUID": "decoded-1", "version": "2.0", "signedDate": october + 5 * day,
            "data": data,
        ]
        fixture.notificationLines.append(AppStoreFixture.json(payload))
        return try fixture.write(#function + (bundle ?? "none"))
    }

    @Test func bundleAndAppIdsHoldDecodedPayloadsToo() throws {
        let other = try otherAppsDecodedRefund(bundle: "com.someone.else")
        let checked = ["--bundle-id", "com.example.app", "--app-apple-id", "1", "--quiet"]
        let refused = try runTool(["validate", "--data", other] + checked)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("another app's bundle id 'com.someone.else'"), "\(refused.stderr)")
        let anonymous = try otherAppsDecodedRefund(bundle: nil)
        let missing = try runTool(["validate", "--data", anonymous] + checked)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("the payload has no bundleId"), "\(missing.stderr)")
        // Without the options, any app's data is read, as before.
        #expect(try runTool(["validate", "--data", other, "--quiet"]).status == 0)
    }

    @Test func oneTokenOnTwoAccountsIsAConflictNamingBoth() throws {
        let data = try folder(
            Self.header + "2026-10-05T10:00:00Z,a1,compute,1,USD\n",
            files: ["accounts.csv": "account_id,original_transaction_id,app_account_token\na1,,tok-1\na2,,tok-1\n"])
        let run = try runTool(["validate", "--data", data, "--quiet"])
        #expect(run.status == 1)
        #expect(
            run.stderr.contains(
                "accounts.csv:3: error: app_account_token \"tok-1\": conflict: already the token of account a1 on line 2"),
            "\(run.stderr)")
    }

    @Test func aBillionCreditsBoughtTenTimesLastsForTenBillion() throws {
        var fixture = AppStoreFixture()
        let purchase = october + day
        fixture.products += "credits.huge,Consumable,,1000000000\n"
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "n1", signed: purchase,
            transaction: AppStoreFixture.transaction(
                "t1", product: "credits.huge", type: "Consumable", purchase: purchase, signed: purchase, extra: ["quantity": 10]))
        fixture.link("a1", "t1")
        // 9.5 billion credits: past Int64 nano-credits (9.22 billion), within the pack's ten billion.
        fixture.cost("a1", at: october + 2 * day, "1.00", credits: 5_000_000_000)
        fixture.cost("a1", at: october + 3 * day, "2.00", credits: 4_500_000_000)
        let data = try fixture.write()
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let totals = try TestFiles.read(out + "/2026-10/totals.csv").split(separator: "\n")
        let columns = totals[0].split(separator: ",", omittingEmptySubsequences: false)
        let values = totals[1].split(separator: ",", omittingEmptySubsequences: false)
        let paid = try #require(columns.firstIndex(of: "cost_paid"))
        let unentitled = try #require(columns.firstIndex(of: "cost_unentitled"))
        #expect(values[paid] == "3.000000" && values[unentitled] == "0.000000")
    }

    // MARK: The record of verified files

    @Test func aRecordOthersCanWriteIsNotTrusted() throws {
        let data = try copyOfSample()
        let folder = try TestFiles.temporaryDirectory("record")
        let record = folder + "/verified.tsv"
        let first = try runTool(["validate", "--data", data, "--verified-files", record, "--quiet"])
        #expect(first.status == 0)
        #expect(try TestFiles.read(record).contains("\trefund-cost \(ToolVersion.current)|"), "bound to the version")
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: record)
        let second = try runTool(["validate", "--data", data, "--verified-files", record])
        #expect(second.status == 0)
        #expect(second.stderr.contains("warning: the record of verified files \(record) is writable by group or others"))
        #expect(!second.stdout.contains("verified by an earlier run"))
    }

    @Test func aHomeThatCannotHoldTheRecordCostsAWarningNotTheRun() throws {
        let data = try copyOfSample()
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(
            [
                "report", "--data", data, "--month", "2026-10", "--out", out, "--quiet", "--verified-files",
                "/proc/none/record.tsv",
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: the record of verified files could not be saved"))
        let home = try runTool(
            ["validate", "--data", data, "--quiet", "--verified-files", "/proc/none/x.tsv"],
            environment: ["HOME": "/proc/none"])
        #expect(home.status == 0 && !home.stderr.contains("rejected so far"))
    }

    // MARK: Outputs and options

    @Test func noOutputLandsAmongTheInputsAndNoPathIsEmpty() throws {
        let data = try copyOfSample()
        let before = try FileManager.default.subpathsOfDirectory(atPath: data).sorted()
        let runs = [
            ["export-access", "--data", data, "--out", data + "/costs/a.csv"],
            ["validate", "--data", data, "--rejects", data + "/accounts.csv"],
            ["validate", "--data", data, "--verified-files", data + "/costs/record.csv"],
            ["report", "--data", data, "--month", "2026-10", "--out", "/tmp", "--verified-files", data + "/record.tsv"],
        ]
        for arguments in runs {
            let run = try runTool(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains("a path outside --data"), "\(run.stderr)")
        }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: data).sorted() == before)
        let emptyOut = try runTool(["report", "--data", data, "--month", "2026-10", "--out", ""])
        #expect(emptyOut.status == 2 && emptyOut.stderr.contains("--out '': expected a path"))
        let emptyData = try runTool(["report", "--data", "", "--month", "2026-10", "--out", "/tmp/x"])
        #expect(emptyData.status == 2 && emptyData.stderr.contains("--data '': expected a path"))
        for threads in ["-1", "0", "257"] {
            let run = try runTool(["validate", "--data", data, "--threads", threads])
            #expect(run.status == 2 && run.stderr.contains("--threads '\(threads)': expected a whole number from 1 to 256"))
        }
    }

    @Test func aRepeatedSignedPayloadColumnRefusesTheFile() throws {
        let data = try copyOfSample()
        try TestFiles.write("signed_payload,signed_payload\nx,y\nz,w\n", to: data + "/notifications/twice.csv")
        let run = try runTool(["validate", "--data", data, "--quiet"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("twice.csv:1: error: the header names 'signed_payload' twice"), "\(run.stderr)")
        #expect(run.stdout.contains("refused whole: \(data)/notifications/twice.csv (2 rows not counted)"))
    }

    @Test(arguments: [("acct\u{0}1", "byte 0x00"), ("acct\u{1B}[31m", "byte 0x1B")])
    func controlCharactersInTextFieldsAreRejects(account: String, byte: String) throws {
        let data = try folder(Self.header + "2026-10-05T10:00:00Z,\(account),compute,1,USD\n")
        let run = try runTool(["validate", "--data", data, "--quiet"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("holds a control character (\(byte))"), "\(run.stderr)")
        let category = try folder(Self.header + "2026-10-05T10:00:00Z,a1,gpu\u{7}x,1,USD\n", label: #function + "category")
        #expect(try runTool(["validate", "--data", category, "--quiet"]).stderr.contains("category"))
    }

    @Test func messagesSayWhatIsWrong() throws {
        // Trailing bytes after the gzip data.
        let gzip = try TestFiles.temporaryDirectory("gzip")
        try FileManager.default.createDirectory(atPath: gzip + "/costs", withIntermediateDirectories: true)
        let compress = Process()
        compress.executableURL = URL(fileURLWithPath: "/bin/sh")
        compress.arguments = [
            "-c",
            "printf 'timestamp,account_id,category,cost\\n2026-10-05T10:00:00Z,a1,c,1\\n' | gzip > \(gzip)/costs/a.csv.gz; printf junk >> \(gzip)/costs/a.csv.gz",
        ]
        try compress.run()
        compress.waitUntilExit()
        let trailing = try runTool(["validate", "--data", gzip, "--quiet"])
        #expect(trailing.stderr.contains("bytes follow the end of the gzip data that are not another gzip member"))
        #expect(!trailing.stderr.contains("incorrect header check"))
        // Rates too large and too small for nine decimals.
        let rates = try folder(
            Self.header + "2026-10-05T10:00:00Z,a1,c,1,USD\n",
            files: ["fx.csv": "date,currency,rate\n2026-10-01,EUR,1000000000000000000\n2026-10-01,JPY,0.0000000001\n"])
        let run = try runTool(["validate", "--data", rates, "--quiet"])
        #expect(
            run.stderr.contains("fx.csv:2: error: rate \"1000000000000000000\": the rate is amount out of range"), "\(run.stderr)"
        )
        #expect(run.stderr.contains("fx.csv:3: error: rate \"0.0000000001\": the rate is below 0.000000001"), "\(run.stderr)")
    }

    // MARK: Apple's shapes

    @Test func oneBadEntryOfAHistoryPageIsRefusedAlone() throws {
        var fixture = AppStoreFixture()
        let purchase = october + day
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "n0", signed: purchase,
            transaction: AppStoreFixture.transaction("t0", purchase: purchase, signed: purchase))
        fixture.link("a1", "t0")
        fixture.cost("a1", at: october + 2 * day, "1.00")
        func entry(_ uuid: String, attempt: Any) -> [String: Any] {
            let payload: [String: Any] = [
                "notificationType": "ONE_TIME_CHARGE", "notificationUUID": uuid, "version": "2.0", "signedDate": purchase,
                "data": [
                    "environment": "Production", "bundleId": "com.example.app", "appAppleId": 1,
                    "signedTransactionInfo": AppStoreFixture.jws(
                        AppStoreFixture.transaction("t-" + uuid, purchase: purchase, signed: purchase)),
                ],
            ]
            return [
                "signedPayload": AppStoreFixture.jws(payload),
                "sendAttempts": [["attemptDate": attempt, "sendAttemptResult": "SUCCESS"]],
            ]
        }
        let page: [String: Any] = [
            "notificationHistory": [
                entry("h1", attempt: purchase), entry("h2", attempt: "yesterday"), entry("h3", attempt: purchase),
            ],
            "hasMore": false,
        ]
        fixture.notificationLines.append(AppStoreFixture.json(page))
        let data = try fixture.write()
        let run = try runTool(["validate", "--data", data, "--max-rejects", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("notificationHistory[1].sendAttempts[0].attemptDate"), "\(run.stderr)")
        #expect(
            run.stdout.contains("ONE_TIME_CHARGE                           3"), "the other two entries are read: \(run.stdout)")
    }

    /// Values Apple adds later (a new `inAppOwnershipType`, `type`, `revocationType`,
    /// `consumptionRequestReason`) are kept as they came, as Apple's library keeps them: the
    /// close goes on (exit 0 at --max-rejects 0), each value is named once, and the cost of a
    /// transaction whose owner is unknown is counted apart, never as paid and never as a leak.
    @Test func valuesAppleAddsLaterAreKeptAndTheirCostCountedApart() throws {
        var fixture = AppStoreFixture()
        let purchase = october + day
        let guest = AppStoreFixture.transaction("t1", ownership: "FAMILY_GUEST", purchase: purchase, signed: purchase)
        fixture.notify("ONE_TIME_CHARGE", uuid: "n1", signed: purchase, transaction: guest)
        fixture.link("a1", "t1")
        fixture.cost("a1", at: october + 2 * day, "1.00")
        fixture.cost("a1", at: october + 20 * day, "0.25")
        // A purchase of a new type, refunded with a new kind of revocation; a refund request of a new reason.
        let bought = AppStoreFixture.transaction("t2", type: "Consumable Bundle", purchase: purchase, signed: purchase)
        fixture.notify("ONE_TIME_CHARGE", uuid: "n2", signed: purchase, transaction: bought)
        fixture.notify(
            "CONSUMPTION_REQUEST", uuid: "n3", signed: october + 5 * day, transaction: bought, reason: "SOMETHING_NEW")
        var refunded = bought
        refunded["signedDate"] = october + 6 * day
        refunded["revocationDate"] = october + 6 * day
        refunded["revocationReason"] = 0
        refunded["revocationType"] = "REFUND_STORE_CREDIT"
        fixture.notify("REFUND", uuid: "n4", signed: october + 6 * day, transaction: refunded)
        fixture.link("a2", "t2")
        fixture.cost("a2", at: october + 3 * day, "2.00")
        let data = try fixture.write()
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--max-rejects", "0"])
        #expect(run.status == 0, "\(run.stderr)")
        for (field, value) in [
            ("inAppOwnershipType", "FAMILY_GUEST"), ("type", "Consumable Bundle"), ("revocationType", "REFUND_STORE_CREDIT"),
            ("consumptionRequestReason", "SOMETHING_NEW"),
        ] {
            let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: \(field) '\(value)'") }
            #expect(warnings.count == 1, "one warning names \(value): \(run.stderr)")
        }
        let records = try readRecords(out + "/2026-10/totals.csv")
        let totals = Dictionary(uniqueKeysWithValues: zip(records[0].fields, records[1].fields))
        #expect(totals["cost_unknown_ownership"] == "1.250000", "\(totals)")
        #expect(totals["cost_paid"] == "2.000000", "only t2's cost, before its refund")
        #expect(totals["leaked_cost"] == "0.000000" && totals["cost_family_shared"] == "0.000000")
        #expect(totals["cost_total"] == "3.250000", "conservation: every class adds up to the cost read")
        #expect(totals["refunds"] == "1")

        let story = try runTool(["explain", "--data", data, "--account", "a1"])
        #expect(story.status == 0, "\(story.stderr)")
        #expect(story.stdout.contains("inAppOwnershipType FAMILY_GUEST"), "\(story.stdout)")
        #expect(story.stdout.contains("unknown_ownership"), "\(story.stdout)")
        let other = try runTool(["explain", "--data", data, "--account", "a2"])
        #expect(other.stdout.contains("Consumable Bundle") && other.stdout.contains("REFUND_STORE_CREDIT"), "\(other.stdout)")
    }

    @Test func aCostWithMoreDecimalsThanKeptIsRefusedNamingIt() throws {
        let data = try copyOfSample()
        let rows =
            "timestamp,account_id,category,cost,currency\n"
            + "2026-10-05T10:00:00Z,acct-x,compute,0.1234567891,USD\n" + "2026-10-05T11:00:00Z,acct-x,compute,0.1234567890,USD\n"
        try TestFiles.write(rows, to: data + "/costs/precise.csv")
        let run = try runTool(["validate", "--data", data])
        #expect(run.status == 1)
        #expect(run.stderr.contains("precise.csv:2: error: cost \"0.1234567891\": more than nine decimals"), "\(run.stderr)")
        #expect(!run.stderr.contains("precise.csv:3"), "a tenth decimal of 0 loses nothing: \(run.stderr)")
    }

    @Test func aLinkLeftAmongTheOutputIsRemovedNeverFollowed() throws {
        // What a killed run leaves is cleaned up; a link planted under such a name is removed
        // as a link: the folder it points to keeps every file.
        let out = try TestFiles.temporaryDirectory("out")
        let victim = try TestFiles.temporaryDirectory("victim")
        try TestFiles.write("keep me\n", to: victim + "/precious.txt")
        try FileManager.default.createSymbolicLink(atPath: out + "/.2026-10.partial-999999", withDestinationPath: victim)
        let run = try runTool([
            "report", "--data", TestFiles.packageRoot + "/Data/sample", "--month", "2026-10", "--out", out, "--quiet",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try TestFiles.read(victim + "/precious.txt") == "keep me\n")
        #expect(!FileManager.default.fileExists(atPath: out + "/.2026-10.partial-999999"), "the debris is gone")
    }

    @Test func anEmptyTransactionIdIsAUsageError() throws {
        let data = try TestFiles.temporaryDirectory("data")
        let run = try runTool([
            "fetch", "transactions", "--data", data, "--original-transaction-id", "", "--key", try privateTestKey(), "--key-id",
            "K",
            "--issuer-id", "I", "--bundle-id", "com.example.app", "--api-url", "http://127.0.0.1:9",
        ])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("--original-transaction-id"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data + "/transactions/history-.jsonl"))
    }

    @Test func localTestingDataWithoutAChainIsReadUnverifiedOnlyInLocalTesting() throws {
        var fixture = AppStoreFixture()
        let purchase = october + day
        let transaction = AppStoreFixture.transaction(
            "t1", purchase: purchase, signed: purchase, extra: ["environment": "LocalTesting"])
        // Signed as Xcode and local testing sign: a header without x5c.
        func unchained(_ object: [String: Any]) -> String {
            let header = Base64URL.encode(Array("{\"alg\":\"ES256\",\"typ\":\"JWT\"}".utf8))
            return header + "." + Base64URL.encode(Array(AppStoreFixture.json(object).utf8)) + ".c2lnbmF0dXJl"
        }
        let payload: [String: Any] = [
            "notificationType": "ONE_TIME_CHARGE", "notificationUUID": "n1", "version": "2.0", "signedDate": purchase,
            "data": [
                "environment": "LocalTesting", "bundleId": "com.example.app", "signedTransactionInfo": unchained(transaction),
            ],
        ]
        fixture.notificationLines.append(AppStoreFixture.json(["signedPayload": unchained(payload)]))
        fixture.link("a1", "t1")
        fixture.cost("a1", at: october + 2 * day, "1.00")
        let data = try fixture.write()
        let local = try runTool(["validate", "--data", data, "--environment", "LocalTesting"])
        #expect(local.status == 0, "\(local.stderr)")
        #expect(local.stdout.contains("notifications kept                          1"), "\(local.stdout)")
        let production = try runTool(["validate", "--data", data])
        #expect(production.status == 1)
        #expect(production.stderr.contains("no certificate chain"), "\(production.stderr)")
    }

    @Test func localTestingDataIsReadUnverifiedOnlyInLocalTesting() throws {
        var fixture = AppStoreFixture()
        let purchase = october + day
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "n1", signed: purchase,
            transaction: AppStoreFixture.transaction(
                "t1", purchase: purchase, signed: purchase, extra: ["environment": "LocalTesting"]),
            environment: "LocalTesting")
        fixture.link("a1", "t1")
        fixture.cost("a1", at: october + 2 * day, "1.00")
        let data = try fixture.write()
        // Its chain is not trusted here (no --trust-root): only LocalTesting reads it, unverified.
        let untrusted = ["--verified-files", "none", "--trust-root", TestFiles.packageRoot + "/Data/sample/test-root.der"]
        let local = try runTool(["validate", "--data", data, "--environment", "LocalTesting"] + untrusted)
        #expect(local.status == 0, "\(local.stderr)")
        #expect(local.stdout.contains("notifications kept                          1"), "\(local.stdout)")
        // In any other environment its signature is checked, and refused.
        let production = try runTool(["validate", "--data", data] + untrusted)
        #expect(production.status == 1)
        #expect(production.stderr.contains("chain does not reach a trusted root"), "\(production.stderr)")
    }

    @Test func anAppTransactionIsRecognisedAndCounted() throws {
        let data = try copyOfSample()
        let vector = try TestFiles.read(TestFiles.fixture("apple/xcode/xcode-signed-app-transaction"))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try TestFiles.write(
            "{\"signedAppTransactionInfo\":\"\(vector)\"}\n", to: data + "/transactions/app-transaction.jsonl")
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try TestFiles.read(out + "/2026-10/run.json").contains("\"app_transactions\": 1"))
    }
}
