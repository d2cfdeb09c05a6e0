import Foundation
import Testing

@testable import Ingest
@testable import Support
@testable import Synthetic
@testable import TestSupport

/// What a hostile user does to the export folder, through the real command on real files.
///
/// Every case ends in a clear error or a rejected line with its reason: never a crash, a hang,
/// a silent loss or a result that depends on the number of threads.
@Suite("Hostile inputs and options")
struct HardeningTests {
    static let header = "timestamp,account_id,category,cost,currency,quantity,unit,request_id\n"

    /// A folder with one cost file and nothing else.
    func costsOnly(_ text: String, name: String = "costs.csv", label: String = #function) throws -> String {
        let root = try TestFiles.temporaryDirectory(label)
        try TestFiles.write(text, to: root + "/costs/" + name)
        return root
    }

    func expectClean(_ run: ToolRun, _ comment: Comment? = nil) {
        #expect([0, 1, 2].contains(run.status), "crashed or hung (status \(run.status)): \(run.stderr)")
    }

    // MARK: Data loss

    @Test func anOutFolderThatIsHoldsOrLiesInsideTheDataIsRefused() throws {
        let base = try TestFiles.temporaryDirectory()
        try FileManager.default.copyItem(atPath: TestFiles.packageRoot + "/Data/sample", toPath: base + "/2026-10")
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/2026-10")
        // A folder that does not exist, then `..`: the folder it names once made is the data's parent.
        let throughMissing = [base + "/missing/..", base + "/missing/./../2026-10/x/.."]
        for out in [base, base + "/2026-10", base + "/2026-10/reports", base + "/link", base + "/link/x"] + throughMissing {
            let run = try runTool(["report", "--data", base + "/2026-10", "--month", "2026-10", "--out", out, "--quiet"])
            #expect(run.status == 2, "--out \(out)")
            #expect(run.stderr.contains("a folder apart from --data"))
        }
        #expect(FileManager.default.fileExists(atPath: base + "/2026-10/costs/2026-10.csv"))
        #expect(!FileManager.default.fileExists(atPath: base + "/2026-10/2026-10"))
    }

    @Test func aFailedRerunLeavesTheGoodReportByteForByte() throws {
        let data = try copyOfSample()
        let out = try TestFiles.temporaryDirectory("out")
        let good = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet"])
        #expect(good.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: out + "/2026-10").sorted()
        let before = try files.map { try TestFiles.read(out + "/2026-10/" + $0) }
        try TestFiles.write(Self.header + "2026-10-05T10:00:00Z,acct-000001,compute,12;5,USD,,,\n", to: data + "/costs/zz.csv")
        let bad = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("is unchanged") && bad.stderr.contains("2026-10.rejects.csv"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/2026-10").sorted() == files)
        #expect(try files.map { try TestFiles.read(out + "/2026-10/" + $0) } == before)
        #expect(try TestFiles.read(out + "/2026-10.rejects.csv").contains("costs/zz.csv,2,cost,12;5,"))
    }

    @Test func everyEntryOfTheInputFoldersIsReadOrRejected() throws {
        let data = try copyOfSample()
        try FileManager.default.copyItem(atPath: data + "/costs/2026-10.csv", toPath: data + "/costs/2026-11.CSV")
        try FileManager.default.createDirectory(atPath: data + "/costs/sub", withIntermediateDirectories: false)
        try TestFiles.write("x", to: data + "/costs/x.csv.zip")
        try TestFiles.write(Self.header, to: data + "/costs/b.csv ")
        try TestFiles.write("notes", to: data + "/notifications/README.txt")
        #expect(mkfifo(data + "/costs/pipe.csv", 0o644) == 0)
        #expect(mkfifo(data + "/notifications/pipe.jsonl", 0o644) == 0)
        let run = try runTool(["validate", "--data", data, "--quiet"], timeout: 60)
        #expect(run.status == 1)
        for (name, reason) in [
            ("costs/sub", "a folder inside costs/"), ("costs/x.csv.zip", "not a .csv or .jsonl file"),
            ("costs/b.csv ", "not a .csv or .jsonl file"),
            ("notifications/README.txt", "not a .jsonl or .csv file"), ("costs/pipe.csv", "not a regular file"),
            ("notifications/pipe.jsonl", "not a regular file"),
        ] {
            #expect(run.stderr.contains(data + "/" + name + ": error: "), "\(name)")
            #expect(run.stderr.contains(reason), "\(reason)")
        }
        #expect(run.stdout.contains("costs/2026-11.CSV"), "an upper-case extension is read")
    }

    /// A data file whose name holds a line break would print, wherever a message names it, a
    /// line of its own choosing (here one that reads as the report's): refused whole, escaped.
    @Test func aDataFileNamedWithALineBreakIsRefusedEscaped() throws {
        let data = try copyOfSample()
        let name = "z.csv\nrefund-cost report: all is well.csv"
        try FileManager.default.copyItem(atPath: data + "/costs/2026-10.csv", toPath: data + "/costs/" + name)
        let run = try runTool(["validate", "--data", data, "--quiet"], timeout: 60)
        #expect(run.status == 1)
        #expect(
            run.stderr.contains(
                data + "/costs/z.csv\\nrefund-cost report: all is well.csv: error: "
                    + "its name holds a line break or another control character"), "\(run.stderr)")
        #expect(!run.stderr.split(separator: "\n").contains { $0.hasPrefix("refund-cost report:") }, "\(run.stderr)")
    }

    /// An input folder that is a link to nothing, or a folder or file named as an input in
    /// another case, was left out without a word: each is a rejected input, the run says so.
    @Test func anInputFolderThatCannotBeReadIsRefusedNotLeftOut() throws {
        let data = try copyOfSample()
        try FileManager.default.moveItem(atPath: data + "/notifications", toPath: data + "/Notifications")
        try FileManager.default.moveItem(atPath: data + "/accounts.csv", toPath: data + "/Accounts.csv")
        try FileManager.default.removeItem(atPath: data + "/transactions")
        try FileManager.default.createSymbolicLink(atPath: data + "/transactions", withDestinationPath: data + "/gone")
        try FileManager.default.createSymbolicLink(atPath: data + "/prices.csv", withDestinationPath: data + "/gone")
        try FileManager.default.createSymbolicLink(atPath: data + "/allocation.csv", withDestinationPath: data + "/gone")
        try TestFiles.write("category\n", to: data + "/Allocation.csv")
        let run = try runTool(["validate", "--data", data, "--no-verify", "--quiet"], timeout: 60)
        #expect(run.status == 1)
        // costs/ named in another case is said as such, not as a folder with no cost files.
        let costs = try copyOfSample()
        try FileManager.default.moveItem(atPath: costs + "/costs", toPath: costs + "/Costs")
        let capital = try runTool(["validate", "--data", costs, "--no-verify", "--quiet"], timeout: 60)
        #expect(capital.status == 1)
        #expect(capital.stderr.contains(costs + "/Costs: error: named as costs in another case"), "\(capital.stderr)")
        for (name, reason) in [
            ("Notifications", "named as notifications in another case: only notifications is read; rename it"),
            ("Accounts.csv", "named as accounts.csv in another case"),
            ("Allocation.csv", "named as allocation.csv in another case"),
            ("transactions", "not a folder (a file, a pipe or device, or a link to nothing)"),
            ("prices.csv", "not a regular file; prices.csv must be a file"),
            ("allocation.csv", "not a regular file; allocation.csv must be a file"),
        ] {
            #expect(run.stderr.contains(data + "/" + name + ": error: " + reason), "\(run.stderr)")
        }
    }

    /// A name that is not UTF-8 is refused, and the file named with U+FFFD beside it read once.
    ///
    /// Decoded, such a name read as that file's: the run read that file twice and the other never.
    @Test func aNameThatIsNotUTF8IsRefusedAndReadsAsNoOtherFile() throws {
        let data = try copyOfSample()
        let folder = data + "/notifications/"
        let bytes = Array((folder + "2026-10").utf8) + [0xFF] + Array(".jsonl".utf8) + [0]
        let renamed = bytes.withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { rename(folder + "2026-10.jsonl", $0.baseAddress!) }
        }
        try #require(renamed == 0)
        try FileManager.default.moveItem(atPath: folder + "2026-06.jsonl", toPath: folder + "2026-10\u{FFFD}.jsonl")
        let run = try runTool(["validate", "--data", data, "--no-verify", "--quiet"], timeout: 60)
        #expect(run.status == 1)
        #expect(run.stderr.contains(folder + "2026-10\u{FFFD}.jsonl: error: its name is not UTF-8"), "\(run.stderr)")
        // The sample's 2026-06.jsonl read once under its new name, 2026-10.jsonl not at all: what
        // the sample without 2026-10.jsonl reads.
        let without = try copyOfSample()
        try FileManager.default.removeItem(atPath: without + "/notifications/2026-10.jsonl")
        let expected = try runTool(["validate", "--data", without, "--no-verify", "--quiet"], timeout: 60)
        func linesRead(_ run: ToolRun) -> [Substring] {
            run.stdout.split(separator: "\n").filter { $0.contains("notification lines read") }
        }
        #expect(!linesRead(expected).isEmpty)
        #expect(linesRead(run) == linesRead(expected), "\(run.stdout)")
    }

    /// The same letters composed two ways (é as one character, or e and an accent) are two
    /// files on disk but one name as text: the second is refused, not a crash.
    @Test func twoSpellingsOfOneNameAreOneFile() throws {
        let data = try copyOfSample()
        let costs = data + "/costs/"
        try FileManager.default.copyItem(atPath: costs + "2026-10.csv", toPath: costs + "caf\u{E9}.csv")
        try FileManager.default.copyItem(atPath: costs + "2026-10.csv", toPath: costs + "cafe\u{301}.csv")
        let run = try runTool(["validate", "--data", data, "--no-verify", "--quiet"], timeout: 60)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("its name reads as another file's of costs/"), "\(run.stderr)")
    }

    /// These two ids collided in the 128-bit fingerprint of 0.5.0: the second row was dropped.
    @Test func craftedRequestIDsCannotDropARealRow() throws {
        let root = try costsOnly(
            "timestamp,account_id,category,cost,request_id\n"
                + "2026-10-05T10:00:00Z,acct-900001,compute,100.000000,l!lOPOl!hkAkhA!h\n"
                + "2026-10-06T11:00:00Z,acct-900002,storage,250.000000,(<0s[uk`@Nm`*xP-\n")
        let run = try runTool(["validate", "--data", root, "--quiet"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("USD 350.000000") || run.stdout.contains(" 350.000000\n"))
        #expect(!run.stdout.contains("duplicates dropped"))
    }

    /// The same request id in two files whose columns come in another order: one event, dropped
    /// once, whatever the number of threads; the report's bytes do not move either.
    @Test func threadsNeverChangeAByteWithColumnsInAnotherOrder() throws {
        let data = try copyOfSample()
        try TestFiles.write(
            "timestamp,account_id,category,cost,request_id\n2026-10-05T10:00:00Z,acct-000002,compute,3.000000,dup-1\n",
            to: data + "/costs/a.csv")
        try TestFiles.write(
            "timestamp,category,account_id,cost,request_id\n2026-10-05 10:00:00,compute,acct-000002,3.0,dup-1\n",
            to: data + "/costs/b.csv")
        var outputs: [[String]] = []
        for threads in ["1", "2", "7"] {
            let out = try TestFiles.temporaryDirectory("out\(threads)")
            let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--threads", threads, "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
            let folder = out + "/2026-10/"
            outputs.append(
                try ["summary.csv", "cost_by_day.csv", "leaks.csv", "refunds.csv", "report.html", "run.json"].map { file in
                    let text = try TestFiles.read(folder + file)
                    return file == "run.json" ? String(text.prefix { $0 != "\u{1}" }.split(separator: "\"timings\"")[0]) : text
                })
            #expect(try TestFiles.read(folder + "run.json").contains("\"duplicates_dropped\": 23"))
        }
        #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])
    }

    /// accounts.csv and the cost files write the same id with and without a trailing space.
    @Test func anIdentifierIsTheSameWithSpacesAroundIt() throws {
        let data = try copyOfSample()
        let accounts = try TestFiles.read(data + "/accounts.csv")
        try TestFiles.write(
            accounts.replacingOccurrences(of: "\nacct-000002,", with: "\n\"acct-000002 \","), to: data + "/accounts.csv")
        try TestFiles.write(
            Self.header + "2026-10-05T10:00:00Z,\" acct-000002 \",compute,3.000000,USD,,,\n", to: data + "/costs/zz.csv")
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet"])
        #expect(run.status == 0)
        let explain = try runTool(["explain", "--data", data, "--account", "acct-000002", "--as-of", "2026-11-01"])
        #expect(explain.status == 0)
        #expect(!explain.stdout.contains("unlinked"))
    }

    // MARK: Values near the limits

    @Test(arguments: [
        ("-9223372036854775807", "outside 1970-01-01 to 2200-01-01"), ("9223372036854775807", "outside 1970-01-01 to 2200-01-01"),
        ("yesterday", "not a timestamp"),
        ("1791000000", "looks like epoch seconds"), ("3000-01-01T00:00:00Z", "outside 1970-01-01 to 2200-01-01"),
    ])
    func absurdCostTimestampsAreRejectedWithAReason(value: String, reason: String) throws {
        let root = try costsOnly(Self.header + "\(value),acct-1,compute,1.00,USD,,,\n")
        let run = try runTool(["validate", "--data", root, "--quiet"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("costs.csv:2: error: timestamp \"\(value)\": \(reason)"), "\(run.stderr)")
    }

    @Test func sumsBeyondTheRangeOfMoneyNameTheFileAndLine() throws {
        let root = try costsOnly(
            Self.header + "2026-10-05T10:00:00Z,acct-1,compute,5000000000,USD,,,\n"
                + "2026-10-05T11:00:00Z,acct-1,compute,5000000000,USD,,,\n")
        let run = try runTool(["validate", "--data", root, "--quiet"])
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("costs.csv:3: error: the cost read so far in this currency")
                || run.stderr.contains("costs.csv: error: the cost read in this file"), "\(run.stderr)")
        let eur = try costsOnly(Self.header + "2026-10-05T10:00:00Z,acct-1,compute,9000000000,EUR,,,\n", label: "eur")
        try TestFiles.write("date,currency,rate\n2026-10-01,EUR,1.10\n", to: eur + "/fx.csv")
        let out = try TestFiles.temporaryDirectory("out")
        let converted = try runTool(["report", "--data", eur, "--month", "2026-10", "--out", out, "--quiet"])
        #expect(converted.status == 1)
        #expect(converted.stderr.contains("costs.csv:2: error: converting EUR overflowed"), "\(converted.stderr)")
    }

    @Test func absurdAppStoreValuesAreRejectedLines() throws {
        var fixture = AppStoreFixture()
        let t0 = AppStoreFixture.october
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "a", signed: t0,
            transaction: AppStoreFixture.transaction("1", purchase: -9_200_000_000_000_000_000, signed: t0))
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "b", signed: t0,
            transaction: AppStoreFixture.transaction("2", purchase: t0, signed: t0, extra: ["quantity": 20_000_000]))
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "c", signed: t0,
            transaction: AppStoreFixture.transaction("3", purchase: t0, signed: t0, extra: ["price": Int64.max]))
        fixture.notify(
            "CONSUMPTION_REQUEST", uuid: "d", signed: t0, transaction: AppStoreFixture.transaction("4", purchase: t0, signed: t0),
            received: Int64.max)
        fixture.products += "pro.lifetime,Consumable,,10000000000\n"
        let root = try fixture.write()
        let run = try runTool(["validate", "--data", root, "--quiet"])
        #expect(run.status == 1)
        for expected in [
            "n.jsonl:1: error: data.signedTransactionInfo.originalPurchaseDate",
            "n.jsonl:2: error: data.signedTransactionInfo.quantity",
            "n.jsonl:3: error: data.signedTransactionInfo.price", "n.jsonl:4: error: receivedAt",
            "products.csv:2: error: credits \"10000000000\"",
        ] {
            #expect(run.stderr.contains(expected), "\(expected) in \(run.stderr)")
        }
    }

    @Test(arguments: [
        ["--grace", String(repeating: "9999999999d", count: 11)], ["--threads", "9223372036854775807"], ["--threads", "1000000"],
        ["--threads", "0"], ["--as-of", "-9223372036854775807"], ["--premature-window", "400d"], ["--max-rejects", "-1"],
    ])
    func optionsOutOfRangeAreUsageErrors(option: [String]) throws {
        let run = try runTool(["report", "--data", "x", "--month", "2026-10", "--out", "y"] + option)
        #expect(run.status == 2, "\(option): \(run.stderr)")
        #expect(run.stderr.contains("error: \(option[0])"))
    }

    @Test func jsonNestedFortyThousandDeepIsARejectedLine() throws {
        let root = try costsOnly(Self.header)
        let deep = String(repeating: "[", count: 40_000) + String(repeating: "]", count: 40_000)
        try TestFiles.write("{\"notificationType\":\"TEST\",\"x\":\(deep)}\n", to: root + "/notifications/n.jsonl")
        let run = try runTool(["validate", "--data", root, "--quiet"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("n.jsonl:1: error: x"), "\(run.stderr)")
        #expect(run.stderr.contains("nested more than 64 levels deep"))
    }

    // MARK: Messages

    /// A quoted field across byte 1,048,576, where 0.5.0 cut its parts: validate and report agree.
    @Test func aQuotedFieldAcrossTheFirstMebibyteReadsTheSameEverywhere() throws {
        var text = Self.header
        var row = 0
        while text.utf8.count < 1_048_000 {
            row += 1
            text += "2026-10-05T10:00:00Z,acct-\(row % 50),compute,0.010000,USD,,,r\(row)\n"
        }
        text +=
            "2026-10-05T10:00:00Z,acct-1,compute,1.000000,USD,,,\"a request id,\nwith a comma and a line feed \(String(repeating: "x", count: 2000))\"\n"
        let root = try costsOnly(text)
        let validate = try runTool(["validate", "--data", root])
        #expect(validate.status == 0, "\(validate.stderr)")
        // Every row read once: the 1 USD row across the mebibyte, and the others at 0.01 each.
        let micros = 1_000_000 + row * 10_000
        let cost = "\(micros / 1_000_000).\(String(micros % 1_000_000).leftPadded(to: 6))"
        #expect(validate.stdout.contains("read \(HumanText.count(row + 1)) cost rows"), "\(validate.stdout)")
        var written: [[String]] = []
        for threads in ["1", "2", "8"] {
            // Each its own folder: what each thread count wrote is compared, file by file.
            let out = try TestFiles.temporaryDirectory("out\(threads)")
            let report = try runTool([
                "report", "--data", root, "--month", "2026-10", "--out", out, "--threads", threads, "--quiet",
            ])
            #expect(report.status == 0, "\(report.stderr)")
            let totals = try readRecords(out + "/2026-10/totals.csv")
            #expect(totals[1].fields[4] == cost, "cost_total: \(totals[1].fields)")
            written.append(
                try ["summary.csv", "totals.csv", "trend.csv", "cost_by_day.csv", "rejects.csv", "report.html"].map {
                    try TestFiles.read(out + "/2026-10/" + $0)
                })
        }
        #expect(written[0] == written[1] && written[1] == written[2], "the same bytes on 1, 2 and 8 threads")
    }

    @Test func carriageReturnLineEndsCountLines() throws {
        let root = try costsOnly(
            "timestamp,account_id,category,cost\r2026-10-05T10:00:00Z,a,compute,1\r2026-10-05T10:00:00Z,a,compute,x\r")
        let run = try runTool(["validate", "--data", root, "--quiet"])
        #expect(run.stderr.contains("costs.csv:3: error: cost \"x\""), "\(run.stderr)")
    }

    @Test func utf16AndRepeatedHeadersSayWhatIsWrong() throws {
        let utf16 = try costsOnly("")
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "timestamp,account_id,category,cost\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try Data(bytes).write(to: URL(fileURLWithPath: utf16 + "/costs/costs.csv"))
        let run = try runTool(["validate", "--data", utf16, "--quiet"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("costs.csv:1: error: the file is UTF-16 text; save it as UTF-8"), "\(run.stderr)")
        let repeated = try costsOnly(
            "timestamp,account_id,category,cost,cost\n2026-10-05T10:00:00Z,a,compute,1,2\n", label: "rep")
        let second = try runTool(["validate", "--data", repeated, "--quiet"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("costs.csv:1: error: the header names 'cost' twice"), "\(second.stderr)")
    }

    // MARK: The output folder

    @Test func debrisOfKilledRunsIsRemovedAndAFileInTheWayIsAnError() throws {
        let data = try copyOfSample()
        let out = try TestFiles.temporaryDirectory("out")
        // A process id that cannot be running: above the kernel's limit.
        try FileManager.default.createDirectory(atPath: out + "/.2026-10.partial-99999999", withIntermediateDirectories: true)
        try TestFiles.write("half", to: out + "/2026-10.rejects.csv.partial-99999999")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet"])
        #expect(run.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["2026-10"])
        try TestFiles.write("not a folder", to: out + "/2026-09")
        let blocked = try runTool(["report", "--data", data, "--month", "2026-09", "--out", out, "--quiet"])
        #expect(blocked.status == 1)
        #expect(blocked.stderr.contains("a file with the report's name is in the way"))
        #expect(try TestFiles.read(out + "/2026-09") == "not a folder")
    }
}

/// A forged, tampered, re-signed or other-app payload never changes a figure without the run
/// failing on it (docs/domain.md rule 12), through the real command on a copy of the sample.
@Suite("Forged App Store data")
struct ForgedDataTests {
    /// A REFUND notification for an existing lifetime purchase, signed as `jws` says.
    func refundLine(_ sign: ([UInt8]) -> String, bundle: String = "com.example.app") throws -> String {
        let t0 = AppStoreFixture.october
        let transaction = AppStoreFixture.transaction(
            "2000000700000999", product: "com.example.pro.lifetime", purchase: t0 - 20 * AppStoreFixture.day,
            signed: t0 + 5 * AppStoreFixture.day,
            extra: ["revocationDate": t0 + 5 * AppStoreFixture.day, "price": 149_990, "bundleId": bundle])
        let payload: [String: Any] = [
            "notificationType": "REFUND", "notificationUUID": "forged-1", "version": "2.0",
            "signedDate": t0 + 5 * AppStoreFixture.day,
            "data": [
                "environment": "Production", "bundleId": bundle,
                "signedTransactionInfo": sign(Array(AppStoreFixture.json(transaction).utf8)),
            ],
        ]
        return AppStoreFixture.json(["signedPayload": sign(Array(AppStoreFixture.json(payload).utf8))])
    }

    func withLine(_ line: String, label: String = #function) throws -> String {
        let data = try copyOfSample(label)
        let path = data + "/notifications/2026-10.jsonl"
        try TestFiles.write(try TestFiles.read(path) + line + "\n", to: path)
        return data
    }

    @Test func anUnsignedForgeryIsRefusedAndTheReportIsNotWritten() throws {
        let none = { (payload: [UInt8]) -> String in
            Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(payload) + "."
        }
        let data = try withLine(try refundLine(none))
        let validate = try runTool(["validate", "--data", data, "--quiet"])
        #expect(validate.status == 1)
        #expect(validate.stderr.contains("signature check: unsupported algorithm 'none'"), "\(validate.stderr)")
        let out = try TestFiles.temporaryDirectory("out")
        let report = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet"])
        #expect(report.status == 1)
        #expect(!FileManager.default.fileExists(atPath: out + "/2026-10"))
    }

    /// Signed by a chain of its own: it verifies only if its root is trusted, which it is not.
    @Test func aPayloadResignedWithAnotherChainIsRefused() throws {
        let other = TestChain(seed: 999)
        let data = try withLine(try refundLine(other.sign))
        let run = try runTool(["validate", "--data", data, "--quiet"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("chain does not reach a trusted root"), "\(run.stderr)")
    }

    /// The sample's own chain signs a REFUND for another app: refused with --bundle-id.
    @Test func anotherAppsRefundIsRefusedWithBundleID() throws {
        let sample = TestChain(seed: 2026)
        let data = try withLine(try refundLine(sample.sign, bundle: "com.someone.else"))
        let accepted = try runTool(["validate", "--data", data, "--quiet"])
        #expect(accepted.status == 0, "without --bundle-id any app's data is read: \(accepted.stderr)")
        let run = try runTool(["validate", "--data", data, "--quiet", "--bundle-id", "com.example.app"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("another app's bundle id 'com.someone.else'"), "\(run.stderr)")
    }

    @Test func noVerifyIsTheUsersChoiceAndSaysSo() throws {
        let data = try copyOfSample()
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet", "--no-verify"])
        #expect(run.status == 0, "\(run.stderr)")
        let page = try TestFiles.read(out + "/2026-10/report.html")
        #expect(page.contains("Signatures were not checked (--no-verify)"))
        #expect(try TestFiles.read(out + "/2026-10/run.json").contains("\"verification_off\": true"))
        let plain = try runTool(["validate", "--data", data, "--quiet", "--trust-root", "/nonexistent.der"])
        #expect(plain.status == 2)
    }
}

/// A monthly run re-reads the whole history: files verified before are not verified again,
/// and the figures and run.json are the same either way.
@Suite("Record of verified files")
struct VerifiedFilesTests {
    @Test func aRerunSkipsVerifiedFilesAndAChangedFileIsCheckedAgain() throws {
        let data = try copyOfSample()
        let record = try TestFiles.temporaryDirectory("record") + "/verified.tsv"
        let first = try TestFiles.temporaryDirectory("first")
        let second = try TestFiles.temporaryDirectory("second")
        let run1 = try runTool(["report", "--data", data, "--month", "2026-10", "--out", first, "--verified-files", record])
        #expect(run1.status == 0, "\(run1.stderr)")
        let lines = try TestFiles.read(record).split(separator: "\n")
        #expect(lines.count == 7, "six notification files and the history, each verified")
        let run2 = try runTool(["report", "--data", data, "--month", "2026-10", "--out", second, "--verified-files", record])
        #expect(run2.status == 0)
        #expect(run2.stdout.contains("signatures of 7 files verified by an earlier run"), "\(run2.stdout)")
        for file in ["summary.csv", "report.html"] {
            #expect(try TestFiles.read(first + "/2026-10/" + file) == TestFiles.read(second + "/2026-10/" + file))
        }
        let stable = { (text: String) in String(text.split(separator: "\"timings\"")[0]) }
        #expect(
            stable(try TestFiles.read(first + "/2026-10/run.json")) == stable(try TestFiles.read(second + "/2026-10/run.json")))
        // The same size and time but other bytes: the checksum gives it away and every check runs.
        let path = data + "/transactions/history.jsonl"
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let position = try #require(bytes.firstIndex(of: UInt8(ascii: ".")).map { $0 + 40 })
        bytes[position] = bytes[position] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate] as Any], ofItemAtPath: path)
        let run3 = try runTool(["validate", "--data", data, "--verified-files", record, "--quiet"])
        #expect(run3.status == 1)
        #expect(run3.stderr.contains("history.jsonl:1: error:"), "\(run3.stderr)")
    }
}
