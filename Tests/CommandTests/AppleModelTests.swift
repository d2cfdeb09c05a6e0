import Foundation
import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Pipeline
@testable import Report
@testable import Support
@testable import Synthetic
@testable import TestSupport

/// Every notification and App Store Server API response shape in Apple's models
/// (Fixtures/apple/models), their placeholder strings replaced by real JWS signed with the
/// fixture chain, read through `validate` and `explain`.
@Suite("Apple's response shapes")
struct AppleModelTests {
    static func model(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture("apple/models/" + name)))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func sign(_ object: [String: Any]) -> String { AppStoreFixture.jws(object) }

    /// Apple's transaction model with another id (and original id), as the statuses need.
    static func transaction(_ id: String, original: String, revoked: Bool = true) throws -> [String: Any] {
        var transaction = try model("signedTransaction.json")
        transaction["transactionId"] = id
        transaction["originalTransactionId"] = original
        if !revoked {
            transaction["revocationDate"] = nil
            transaction["revocationReason"] = nil
            transaction["isUpgraded"] = false
        }
        return transaction
    }

    /// A notification model with its placeholders signed: the transaction and renewal info.
    static func notification(_ name: String, uuid: String? = nil) throws -> [String: Any] {
        var notification = try model(name)
        if let uuid { notification["notificationUUID"] = uuid }
        if var data = notification["data"] as? [String: Any] {
            if data["signedTransactionInfo"] != nil { data["signedTransactionInfo"] = sign(try model("signedTransaction.json")) }
            if data["signedRenewalInfo"] != nil { data["signedRenewalInfo"] = sign(try model("signedRenewalInfo.json")) }
            notification["data"] = data
        }
        return notification
    }

    /// A data folder with every shape: notifications as received and in a history page,
    /// and every transaction response.
    static func folder() throws -> String {
        var notifications: [String] = []
        for name in [
            "signedNotification.json", "signedConsumptionRequestNotification.json", "signedSummaryNotification.json",
            "signedExternalPurchaseTokenNotification.json", "signedRescindConsentNotification.json",
        ] {
            let uuid = "model-" + name
            notifications.append(AppStoreFixture.json(["signedPayload": sign(try notification(name, uuid: uuid))]))
        }
        var history = try model("getNotificationHistoryResponse.json")
        var entries = try #require(history["notificationHistory"] as? [[String: Any]])
        entries[0]["signedPayload"] = sign(try notification("signedNotification.json", uuid: "history-1"))
        entries[1]["signedPayload"] = sign(try notification("signedConsumptionRequestNotification.json", uuid: "history-2"))
        history["notificationHistory"] = entries
        notifications.append(AppStoreFixture.json(history))

        var transactions: [String] = []
        var page = try model("transactionHistoryResponse.json")
        page["signedTransactions"] = [
            sign(try transaction("80001", original: "80001", revoked: false)), sign(try transaction("80002", original: "80001")),
        ]
        transactions.append(AppStoreFixture.json(page))
        var refunds = try model("getRefundHistoryResponse.json")
        refunds["signedTransactions"] = [
            sign(try transaction("80003", original: "80003")), sign(try transaction("80004", original: "80004")),
        ]
        transactions.append(AppStoreFixture.json(refunds))
        var info = try model("transactionInfoResponse.json")
        info["signedTransactionInfo"] = sign(try transaction("80005", original: "80005", revoked: false))
        transactions.append(AppStoreFixture.json(info))
        var statuses = try model("getAllSubscriptionStatusesResponse.json")
        var groups = try #require(statuses["data"] as? [[String: Any]])
        for (group, index) in [(0, 0), (0, 1), (1, 0)] {
            var lastTransactions = try #require(groups[group]["lastTransactions"] as? [[String: Any]])
            let original = try #require(lastTransactions[index]["originalTransactionId"] as? String)
            lastTransactions[index]["signedTransactionInfo"] = sign(
                try transaction(original + "-1", original: original, revoked: false))
            var renewal = try model("signedRenewalInfo.json")
            renewal["originalTransactionId"] = original
            lastTransactions[index]["signedRenewalInfo"] = sign(renewal)
            groups[group]["lastTransactions"] = lastTransactions
        }
        statuses["data"] = groups
        transactions.append(AppStoreFixture.json(statuses))
        transactions.append(AppStoreFixture.json(try model("appTransaction.json")))

        let root = try TestFiles.temporaryDirectory("apple-models")
        try TestFiles.write(notifications.joined(separator: "\n") + "\n", to: root + "/notifications/models.jsonl")
        try TestFiles.write(transactions.joined(separator: "\n") + "\n", to: root + "/transactions/responses.jsonl")
        try TestFiles.write(
            "account_id,original_transaction_id,app_account_token\na1,,7e3fb20b-4cdb-47cc-936d-99d65f608138\n",
            to: root + "/accounts.csv")
        try TestFiles.write(
            "timestamp,account_id,category,cost\n2023-10-24T12:00:00Z,a1,compute,1.00\n", to: root + "/costs/costs.csv")
        try Data(AppStoreFixture.chain.root).write(to: URL(fileURLWithPath: root + "/test-root.der"))
        return root
    }

    @Test func everyShapeIsReadOrRefusedWithAReasonThatNamesIt() throws {
        let root = try Self.folder()
        let run = try runTool([
            "validate", "--data", root, "--environment", "LocalTesting", "--as-of", "2023-11-01",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // appTransaction.json holds the app's own purchase, no in-app transaction: counted, not refused.
        #expect(!run.stderr.contains("responses.jsonl:5"), "\(run.stderr)")
        #expect(run.stdout.contains("app transactions (not costed)               1"), "\(run.stdout)")
        // 5 notifications received and 2 in the history page; the external purchase token is
        // Production's (its id is not SANDBOX_), so 6 are LocalTesting's.
        #expect(run.stdout.contains("notification lines read                     6"), "\(run.stdout)")
        #expect(run.stdout.contains("notifications kept                          6"), "\(run.stdout)")
        #expect(run.stdout.contains("other environments left out                 Production 1"))
        #expect(run.stdout.contains("CONSUMPTION_REQUEST                       2"))
        #expect(run.stdout.contains("RENEWAL_EXTENSION                         1"))
        // 2 + 2 + 1 + 3 transaction copies from the responses.
        #expect(run.stdout.contains("history lines read                          5"))
        #expect(run.stdout.contains("transaction copies in the histories         8"))
        // 7 signed notifications, their 4 nested transactions and renewal infos are covered by
        // them; 8 transactions and 3 renewal infos from responses were each verified alone.
        #expect(run.stdout.contains("signatures verified                         18"), "\(run.stdout)")
        #expect(run.stderr.contains("notifications/models.jsonl:6: the last history page says hasMore (paginationToken 57715481"))
        #expect(run.stderr.contains("transactions/responses.jsonl:2: the history page of transaction 80003 says hasMore"))
        #expect(run.stdout.contains("appAccountTokens matching no account        0"))
    }

    /// The same data read for Production: every shape says where it comes from (data, summary,
    /// appData, the external purchase token, the responses' top level), so only the external
    /// purchase token (not a SANDBOX_ id) is Production's.
    @Test func environmentsAreReadWhereAppleWritesThem() throws {
        let root = try Self.folder()
        let run = try runTool(["validate", "--data", root, "--as-of", "2023-11-01", "--max-rejects", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("notifications kept                          1"), "\(run.stdout)")
        #expect(run.stdout.contains("EXTERNAL_PURCHASE_TOKEN                   1"))
        #expect(run.stdout.contains("LocalTesting"))
    }

    /// Apple's transaction 23456 is an upgrade (revoked with isUpgraded), held through its
    /// appAccountToken; the renewal info is read beside it.
    @Test func explainTellsTheModelsStory() throws {
        let root = try Self.folder()
        let run = try runTool([
            "explain", "--data", root, "--account", "a1", "--environment", "LocalTesting", "--as-of", "2023-11-01",
            "--max-rejects", "1",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("23456  com.example.product  purchased  Auto-Renewable Subscription"), "\(run.stdout)")
        #expect(run.stdout.contains("revoked 2023-10-24T12:02:30.000Z (app_issue)"))
        #expect(run.stdout.contains("upgraded"))
    }
}

/// Real exports come gzipped: any input may be `.gz`, read as a stream.
@Suite("gzip inputs")
struct GzipInputTests {
    func gzip(_ path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-n", "-9", path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// Every input gzipped gives the same report: every CSV byte for byte, and run.json and
    /// the page apart from the inputs' sizes and checksums (of the files as stored).
    @Test func gzipTwinsGiveTheSameReport() throws {
        let plain = try copyOfSample("plain")
        let zipped = try copyOfSample("zipped")
        let manager = FileManager.default
        for folder in ["costs", "notifications", "transactions"] {
            for name in try manager.contentsOfDirectory(atPath: zipped + "/" + folder) {
                try gzip(zipped + "/" + folder + "/" + name)
            }
        }
        for name in ["accounts.csv", "fx.csv", "products.csv"] { try gzip(zipped + "/" + name) }
        var outputs: [String: String] = [:]
        for (label, data) in [("plain", plain), ("zipped", zipped)] {
            let out = try TestFiles.temporaryDirectory("out-" + label)
            for threads in ["1", "2"] {
                let run = try runTool([
                    "report", "--data", data, "--month", "2026-10", "--out", out, "--threads", threads, "--quiet",
                ])
                #expect(run.status == 0, "\(label): \(run.stderr)")
            }
            for file in ReportFiles.csvNames + ["rejects.csv"] {
                outputs[label + file] = try TestFiles.read(out + "/2026-10/" + file)
            }
            let record = try TestFiles.read(out + "/2026-10/run.json")
            outputs[label + "run.json"] =
                String(record.split(separator: "\"inputs\"")[0])
                + String(record.split(separator: "\"cost_rows\"")[1].split(separator: "\"timings\"")[0])
        }
        for file in ReportFiles.csvNames + ["rejects.csv", "run.json"] {
            #expect(outputs["plain" + file] == outputs["zipped" + file], "\(file) differs")
        }
    }

    /// Members one after the other are read as gunzip reads them; a changed checksum and a cut
    /// file are errors saying so.
    @Test func gzipMembersChecksumsAndCutFiles() throws {
        let root = try TestFiles.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: root + "/costs", withIntermediateDirectories: true)
        let script = """
            import gzip, sys
            root = sys.argv[1]
            head = b"timestamp,account_id,category,cost\\n"
            rows = b"".join(b"2026-10-05T10:00:%02d.000Z,a1,c,1.5\\n" % (i % 60) for i in range(3000))
            open(root + "/costs/members.csv.gz", "wb").write(gzip.compress(head + rows[:40000]) + gzip.compress(rows[40000:]))
            whole = bytearray(gzip.compress(head + rows))
            cut = bytes(whole[: len(whole) // 2])
            whole[-6] ^= 0xFF
            open(root + "/checksum.csv.gz", "wb").write(bytes(whole))
            open(root + "/cut.csv.gz", "wb").write(cut)
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", script, root]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0)
        let members = try runTool(["validate", "--data", root, "--quiet"])
        #expect(members.status == 0, "\(members.stderr)")
        #expect(members.stdout.contains("3,000"), "\(members.stdout)")
        for (name, reason) in [
            ("checksum", "not valid gzip data: incorrect data check"),
            ("cut", "the gzip data ends before its end marker (a cut file?)"),
        ] {
            try FileManager.default.removeItem(atPath: root + "/costs/members.csv.gz")
            try FileManager.default.copyItem(atPath: root + "/\(name).csv.gz", toPath: root + "/costs/members.csv.gz")
            let run = try runTool(["validate", "--data", root, "--quiet"])
            #expect(run.status == 1)
            #expect(run.stderr.contains("costs/members.csv.gz: error: \(reason)"), "\(name): \(run.stderr)")
        }
    }

    @Test func aCorruptGzipFileIsAClearError() throws {
        let root = try TestFiles.temporaryDirectory()
        try TestFiles.write("timestamp,account_id,category,cost\n", to: root + "/costs/a.csv")
        try TestFiles.write("this is not gzip", to: root + "/costs/b.csv.gz")
        let run = try runTool(["validate", "--data", root, "--quiet"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("costs/b.csv.gz: error: not valid gzip data"), "\(run.stderr)")
    }
}
