import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// respond as cron runs it, with the documented line (`--quiet --summary >> LOG`): whatever
/// the job writes that is not redirected is what cron mails, so the mail is what needs a
/// person and the log holds one timestamped line a run; the exit status stays 1 while a
/// problem lasts.
extension RespondTests {
    /// A fake cron: runs `line` through /bin/sh as cron does; what it wrote unredirected (stdout
    /// and stderr together) is the mail.
    func cron(_ line: String) throws -> (status: Int32, mail: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", line]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let mail = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: mail, as: UTF8.self))
    }

    /// The documented cron line, with the test's stub, time and data root.
    func cronLine(data: String, journal: String, key: String, stub: APIStub, asOf: Int64, log: String) -> String {
        "\(toolExecutable().path) respond --data \(data) --journal \(journal) --key \(key) --key-id TEST123456 "
            + "--issuer-id 57246542-96fe-1a63-e053-0824d011072a --bundle-id com.example.app --quiet --summary "
            + "--api-url \(stub.url) --as-of \(Timestamp(milliseconds: asOf)) --max-wait 1s "
            + "--trust-root \(data)/test-root.der --verified-files none >> \(log)"
    }

    /// Appends a consented request of a new pack (a2, transaction ...102) signed at `signed`.
    func appendRequest(to data: String, signed: Int64) throws {
        var fixture = AppStoreFixture()
        let bought = signed - day
        let pack = AppStoreFixture.transaction(
            "2000000000000102", product: "credits.500", type: "Consumable", purchase: bought, signed: bought)
        fixture.notify("ONE_TIME_CHARGE", uuid: "charge-2", signed: bought, transaction: pack)
        fixture.notify("CONSUMPTION_REQUEST", uuid: "request-2", signed: signed, transaction: pack, reason: "OTHER")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/notifications/n.jsonl"))
        handle.seekToEndOfFile()
        handle.write(Data(fixture.notificationLines.map { $0 + "\n" }.joined().utf8))
        try handle.close()
        try TestFiles.write(try TestFiles.read(data + "/accounts.csv") + "a2,2000000000000102,\n", to: data + "/accounts.csv")
        try TestFiles.write(
            try TestFiles.read(data + "/consent.csv") + "a2,true,2026-01-01T00:00:00Z\n", to: data + "/consent.csv")
    }

    @Test func aFakeCronMailsWhatNeedsAttentionAndExitsOneWhileItLasts() throws {
        let data = try data()
        let key = try privateTestKey()
        let folder = try TestFiles.temporaryDirectory("cron")
        let (journal, log) = (folder + "/journal.jsonl", folder + "/respond.log")
        let refusing = try APIStub(
            [["status": 400, "body": ["errorCode": 4_000_185, "errorMessage": "family shared"]]], label: "refusing")
        let down = try APIStub([["status": 500]], label: "down")
        let up = try APIStub([["status": 202]], label: "up")
        let minute: Int64 = 60_000
        let at = { (minutes: Int64) in self.requestSigned + self.hour + minutes * minute }

        // 1. Apple refuses the request: mailed, exit 1.
        let refused = try cron(cronLine(data: data, journal: journal, key: key, stub: refusing, asOf: at(0), log: log))
        #expect(refused.status == 1, "\(refused.mail)")
        let refusal = refused.mail.split(separator: "\n")
        #expect(
            refusal.count == 1
                && refusal[0].hasPrefix("refused   request-1  transaction 2000000000000101: HTTP 400, Apple error 4000185"),
            "\(refused.mail)")
        // 2. Nothing new: the refusal was reported by the run before; nothing mailed, exit 0.
        let quiet = try cron(cronLine(data: data, journal: journal, key: key, stub: refusing, asOf: at(5), log: log))
        #expect(quiet.status == 0 && quiet.mail.isEmpty, "\(quiet.mail)")
        // 3. and 4. A new request meets an outage: mailed and exit 1 on every run while it lasts.
        try appendRequest(to: data, signed: at(8))
        var failedBodies: Set<String> = []
        for minutes: Int64 in [10, 15] {
            let failed = try cron(cronLine(data: data, journal: journal, key: key, stub: down, asOf: at(minutes), log: log))
            #expect(failed.status == 1, "\(failed.mail)")
            let mail = failed.mail.split(separator: "\n")
            #expect(
                mail.count == 1 && mail[0].hasPrefix("failed    request-2  transaction 2000000000000102: HTTP 500"),
                "\(failed.mail)")
            failedBodies.formUnion(down.requests.map(\.body))
        }
        // 5. Apple is back: the same body goes, nothing mailed, exit 0. 6. and 7. Nothing new.
        let recovered = try cron(cronLine(data: data, journal: journal, key: key, stub: up, asOf: at(20), log: log))
        #expect(recovered.status == 0 && recovered.mail.isEmpty, "\(recovered.mail)")
        #expect(Set(up.requests.map(\.body)) == failedBodies && up.requests.count == 1)
        for minutes: Int64 in [25, 30] {
            let idle = try cron(cronLine(data: data, journal: journal, key: key, stub: up, asOf: at(minutes), log: log))
            #expect(idle.status == 0 && idle.mail.isEmpty, "\(idle.mail)")
        }

        // The log: one line a run, each with the real time it was written and the run's exit status.
        let lines = try TestFiles.read(log).split(separator: "\n").map(String.init)
        try #require(lines.count == 7, "\(lines)")
        for line in lines {
            let time = try #require(line.split(separator: " ").first.flatMap { TimestampParser.parse(String($0)) }, "\(line)")
            #expect(abs(Double(time.milliseconds) / 1000 - Date().timeIntervalSince1970) < 300, "\(line)")
            #expect(line.contains(" refund-cost respond as of "), "\(line)")
        }
        #expect(
            lines[0].contains("0 sent, 1 refused") && lines[0].hasSuffix("exit 1: 1 refused since the last summary"),
            "\(lines[0])")
        #expect(lines[1].contains("nothing new since the last run") && lines[1].hasSuffix("exit 0"), "\(lines[1])")
        for line in lines[2...3] {
            #expect(line.contains("0 sent, 0 refused, 1 failed") && line.hasSuffix("exit 1: 1 failed, not yet sent"), "\(line)")
        }
        #expect(lines[4].contains("1 sent, 0 refused, 0 failed") && lines[4].hasSuffix("exit 0"), "\(lines[4])")
        // Two runs with nothing new say the same: request-1 refused and request-2 sent, answered before.
        for line in lines[5...6] {
            #expect(
                line.contains("nothing new since the last run, and nothing left to answer; 2 answered before; exit 0"), "\(line)")
        }
    }

    @Test func aKilledRunLosesNoLineAndItsMissIsReportedByTheNextRun() throws {
        // request-1 was signed at 12:00; the run at 00:30 the next day finds its 12 hours passed.
        // Two new requests are open: the first is answered at once, the second hangs until the
        // run is killed.
        let data = try data()
        for number in [2, 3] {
            var fixture = AppStoreFixture()
            let signed = requestSigned + 12 * hour + Int64(number) * 60_000
            let id = "200000000000010\(number)"
            let pack = AppStoreFixture.transaction(
                id, product: "credits.500", type: "Consumable", purchase: signed - day, signed: signed - day)
            fixture.notify("ONE_TIME_CHARGE", uuid: "charge-\(number)", signed: signed - day, transaction: pack)
            fixture.notify("CONSUMPTION_REQUEST", uuid: "request-\(number)", signed: signed, transaction: pack, reason: "OTHER")
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/notifications/n.jsonl"))
            handle.seekToEndOfFile()
            handle.write(Data(fixture.notificationLines.map { $0 + "\n" }.joined().utf8))
            try handle.close()
            try TestFiles.write(try TestFiles.read(data + "/accounts.csv") + "a\(number),\(id),\n", to: data + "/accounts.csv")
            try TestFiles.write(
                try TestFiles.read(data + "/consent.csv") + "a\(number),true,2026-01-01T00:00:00Z\n", to: data + "/consent.csv")
        }
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let started = Timestamp(milliseconds: requestSigned).description
        let late = Timestamp(milliseconds: requestSigned + 12 * hour + 30 * 60_000).description
        let slow = try APIStub([["status": 202], ["status": 202, "delay": 30]], label: "slow")
        let process = Process()
        process.executableURL = toolExecutable()
        process.arguments = withTestRoot([
            "respond", "--data", data, "--journal", journal, "--key", try privateTestKey(), "--key-id", "TEST123456",
            "--issuer-id", "issuer", "--bundle-id", "com.example.app", "--api-url", slow.url, "--as-of", late, "--start",
            started,
        ])
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while slow.requests.count < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let alerted = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // Each line went out as it was written: none is lost with the killed process.
        #expect(printed.contains("sent      request-2  transaction 2000000000000102: HTTP 202"), "\(printed)")
        #expect(alerted.contains("missed   request-1  transaction 2000000000000101: its 12 hours ended"), "\(alerted)")
        #expect(try journalStates(journal) == ["missed", "sending", "sent", "sending"])

        // The next run sends request-3 again and reports the miss its killed predecessor never did.
        let stub = try APIStub([["status": 202]])
        let next = try respond(data, stub: stub, journal: journal, extra: ["--as-of", late, "--quiet", "--summary"])
        #expect(next.status == 1, "\(next.stdout)\(next.stderr)")
        // The same line as the killed run printed, and when it was journaled.
        let missed = try #require(alerted.split(separator: "\n").first { $0.hasPrefix("missed   request-1") })
        #expect(next.stderr.contains(missed + " (journaled at "), "\(next.stderr)")
        #expect(next.stderr.contains("by a run that stopped before its summary"), "\(next.stderr)")
        #expect(next.stdout.hasSuffix("exit 1: 1 missed since the last summary\n"), "\(next.stdout)")
        #expect(stub.requests.map(\.path) == ["/inApps/v2/transactions/consumption/2000000000000103"])
        // Reported once: the run after exits 0 and mails nothing.
        let after = try respond(data, stub: stub, journal: journal, extra: ["--as-of", late, "--quiet"])
        #expect(after.status == 0 && after.stdout.isEmpty && after.stderr.isEmpty, "\(after.stdout)\(after.stderr)")
    }
}

/// What docs/respond.md tells people to run is what this version does.
@Suite("respond's documentation")
struct RespondDocumentationTests {
    static var respondDoc: String { (try? TestFiles.read(TestFiles.packageRoot + "/docs/respond.md")) ?? "" }

    @Test func theKubernetesExampleNamesThisVersionsImage() throws {
        let tags = Self.respondDoc.split(separator: "\n").filter { $0.contains("image: registry.example.com/refund-cost:") }
        try #require(tags.count == 1)
        #expect(tags[0].hasSuffix(":\(ToolVersion.current)"), "\(tags[0])")
    }

    @Test func everyDocumentedRespondLineTakesOptionsRespondHas() throws {
        let help = try runTool(["respond", "--help"]).stdout
        let lines = Self.respondDoc.split(separator: "\n").filter {
            $0.contains("refund-cost respond --") || $0.contains("refund-cost respond \\")
        }
        #expect(!lines.isEmpty)
        for line in lines {
            for word in line.split(separator: " ") where word.hasPrefix("--") {
                #expect(help.contains(String(word.prefix { $0 != "=" })), "\(word) in: \(line)")
            }
        }
    }
}
