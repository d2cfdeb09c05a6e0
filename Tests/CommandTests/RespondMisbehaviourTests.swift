import Foundation
import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

/// `respond` when the world misbehaves: a clock behind Apple's, a full disk, a reply that is
/// not Apple's, links planted beside the journal, a key file that is not a key. Each case is
/// one a hostile sweep found; none may lose an answer or send one twice.
extension RespondTests {
    /// `respond` as cron runs it: as of the real clock, no `--as-of`.
    func respondNow(_ data: String, stub: APIStub, journal: String, fileSizeLimit: Int? = nil) throws -> ToolRun {
        try runTool(
            [
                "respond", "--data", data, "--journal", journal, "--key", try privateTestKey(), "--key-id", "TEST123456",
                "--issuer-id", "57246542-96fe-1a63-e053-0824d011072a", "--bundle-id", "com.example.app", "--api-url", stub.url,
                "--max-wait", "20s",
            ], fileSizeLimit: fileSizeLimit)
    }

    var clockNow: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    @Test func aRequestSignedSecondsAheadOfThisClockIsAnswered() throws {
        // Apple's clock runs 40 s ahead of this machine's: the request is open for Apple already.
        let data = try data(signed: clockNow + 40_000)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let run = try respondNow(data, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("1 open requests: 1 sent"), "\(run.stdout)")
        #expect(stub.requests.count == 1)
    }

    @Test func aRequestNotYetOpenKeepsTheNextRunFromSkipping() throws {
        // Signed two hours ahead of this clock: not open yet, so not answered now; but the next
        // run must read again, or it is never answered.
        let data = try data(signed: clockNow + 2 * hour)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let first = try respondNow(data, stub: stub, journal: journal)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(stub.requests.isEmpty)
        #expect(first.stdout.contains("1 signed after"), "the request waiting is named: \(first.stdout)")
        let second = try respondNow(data, stub: stub, journal: journal)
        #expect(!second.stdout.contains("nothing new since the last run"), "\(second.stdout)")
        #expect(second.stdout.contains("1 signed after"), "\(second.stdout)")
    }

    @Test func aFullDiskBlocksNoLaterAnswer() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        // The disk fills 60 bytes into the `sending` line: nothing may go out for it.
        let full = try runTool(
            [
                "respond", "--data", data, "--journal", journal, "--key", try privateTestKey(), "--key-id", "TEST123456",
                "--issuer-id", "issuer", "--bundle-id", "com.example.app", "--api-url", stub.url, "--as-of", asOf,
            ], fileSizeLimit: 60)
        #expect(full.status == 1, "\(full.stdout)\(full.stderr)")
        #expect(full.stderr.contains("journal.jsonl"), "\(full.stderr)")
        #expect(stub.requests.isEmpty, "nothing is sent before its `sending` line is on disk")
        #expect(try TestFiles.read(journal).isEmpty, "the part of the line written is taken back")

        // The next run, with room again, sends it, once.
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(stub.requests.count == 1)
        #expect(try journalStates(journal) == ["sending", "sent"])
        let again = try respond(data, stub: stub, journal: journal)
        #expect(again.status == 0)
        #expect(stub.requests.count == 1, "answered once")
    }

    @Test func aTornLastLineIsRecoveredAndItsRequestSentOnce() throws {
        // What a full disk leaves where the part written could not be taken back: the start of
        // the tool's own `sending` line, with no end.
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let sent =
            "{\"notificationUUID\":\"other\",\"transactionId\":\"1\",\"state\":\"sent\",\"at\":\"2026-10-04T12:00:00Z\",\"attempt\":1}\n"
        try TestFiles.write(
            sent + "{\"notificationUUID\":\"request-1\",\"transactionId\":\"2000000000000101\",\"state\":\"send", to: journal)
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("journal.jsonl:2") && run.stderr.contains("cut short"), "\(run.stderr)")
        #expect(stub.requests.count == 1)
        #expect(try journalStates(journal) == ["sent", "sending", "sent"])
        #expect(try TestFiles.read(journal).hasPrefix(sent), "the whole lines before it are kept as they were")
        let again = try respond(data, stub: stub, journal: journal)
        #expect(again.status == 0)
        #expect(!again.stderr.contains("cut short"), "recovered once: \(again.stderr)")
        #expect(stub.requests.count == 1, "answered once")
    }

    @Test func aDamagedLineBeforeTheLastIsStillRefusedWithItsNumber() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let good =
            "{\"notificationUUID\":\"x\",\"transactionId\":\"1\",\"state\":\"sent\",\"at\":\"2026-10-04T12:00:00Z\",\"attempt\":1}"
        try TestFiles.write(good + "\n{\"notificationUUID\": \"y\", \"sta\n" + good, to: journal)
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 1)
        #expect(run.stderr.contains("journal.jsonl:2: error:"), "\(run.stderr)")
        #expect(stub.requests.isEmpty)
    }

    @Test(arguments: [
        (404, "<html><body>Not Found</body></html>", [String: String]()),
        (400, "<html><body>Bad Request from the proxy</body></html>", [:]),
        (302, "", ["Location": "https://elsewhere.example/inApps"]),
        // A captive portal's page, and a success Apple does not answer this call with (it says 202).
        (200, "<html><body>Sign in to the hotel Wi-Fi</body></html>", [:]),
        (204, "", [:]),
    ])
    func aReplyThatIsNotApplesFailsAndGoesAgain(status: Int, body: String, headers: [String: String]) throws {
        let data = try data(label: "\(#function)\(status)")
        let stub = try APIStub([["status": status, "body": body, "headers": headers]], label: "\(#function)\(status)")
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 1)
        let journaled = try TestFiles.read(journal)
        #expect(try journalStates(journal) == ["sending", "failed"], "\(journaled)")
        #expect(journaled.contains("\"http_status\":\(status)"), "\(journaled)")
        if !body.isEmpty { #expect(journaled.contains(String(body.prefix(20))), "the first bytes of the body: \(journaled)") }
        #expect(stub.requests.count > 1, "retried within the deadline")
        #expect(Set(stub.requests.map(\.path)).count == 1, "a redirect is never followed")
        let before = stub.requests.count
        _ = try respond(data, stub: stub, journal: journal)
        #expect(stub.requests.count > before, "the next run sends it again")
        #expect(Set(stub.requests.map(\.body)).count == 1, "with the same body")
    }

    /// A server that echoes the request's headers echoes the token: the reason journaled and
    /// printed names it, never shows it.
    @Test func aTokenEchoedBackIsNeverJournaledOrPrinted() throws {
        let data = try data()
        let token = "eyJhbGciOiJFUzI1NiIsImtpZCI6IlRFU1QxMjM0NTYifQ.eyJpc3MiOiJpc3N1ZXIifQ.c2lnbmF0dXJl"
        let stub = try APIStub([["status": 500, "body": "you sent: Authorization: Bearer \(token)"]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let run = try respond(data, stub: stub, journal: journal, extra: ["--max-wait", "1s"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let journaled = try TestFiles.read(journal)
        #expect(journaled.contains("Bearer <a token, not shown>"), "\(journaled)")
        for text in [journaled, run.stdout, run.stderr] { #expect(!text.contains("eyJ"), "\(text)") }
    }

    /// `--state link/` names the link's target by the letter, and the link by intent: it is the
    /// link, refused as `--state link` is, and nothing is written where it points.
    @Test func aStateFolderGivenAsALinkWithASlashIsRefused() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let folder = try TestFiles.temporaryDirectory("journal")
        try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder + "/st", withDestinationPath: folder + "/real")
        let run = try respond(data, stub: stub, journal: folder + "/journal.jsonl", extra: ["--state", folder + "/st/"])
        #expect(run.status == 1 && run.stderr.contains("link"), "\(run.stdout)\(run.stderr)")
        #expect(stub.requests.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/real").isEmpty)
    }

    /// A request that failed and then left the data (its notification removed) is neither
    /// forgotten nor failed for ever: every run exits 1 while it could still be answered, and
    /// once 12 hours have passed since it failed, it is journaled missed, reported once.
    @Test func aFailedRequestGoneFromTheDataIsMissedNotLost() throws {
        let data = try data()
        let outage = try APIStub([["status": 500]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let failed = try respond(data, stub: outage, journal: journal, extra: ["--max-wait", "1s"])
        #expect(failed.status == 1 && failed.stderr.contains("failed    request-1"), "\(failed.stdout)\(failed.stderr)")
        // The request's notification (the file's last line) is taken out of the data.
        let notifications = data + "/notifications/n.jsonl"
        let lines = try TestFiles.read(notifications).split(separator: "\n")
        try TestFiles.write(lines.dropLast().joined(separator: "\n") + "\n", to: notifications)

        let stub = try APIStub([["status": 202]])
        let waiting = try respond(data, stub: stub, journal: journal, extra: ["--summary"])
        #expect(waiting.status == 1, "still failed, not yet sent: \(waiting.stdout)\(waiting.stderr)")
        #expect(waiting.stdout.contains("1 failed, not yet sent"), "\(waiting.stdout)")
        #expect(stub.requests.isEmpty)

        // 14 hours after the request was signed (and 13 after it failed): missed, once.
        let late = Timestamp(milliseconds: requestSigned + 14 * hour).description
        let missed = try respond(data, stub: stub, journal: journal, extra: ["--as-of", late])
        #expect(missed.status == 1, "\(missed.stdout)\(missed.stderr)")
        let line = "missed   request-1  transaction 2000000000000101: its 12 hours ended"
        #expect(missed.stderr.contains(line), "\(missed.stderr)")
        #expect(try journalStates(journal).suffix(1) == ["missed"])
        let after = try respond(data, stub: stub, journal: journal, extra: ["--as-of", late])
        #expect(after.status == 0, "reported once: \(after.stdout)\(after.stderr)")
        #expect(stub.requests.isEmpty)
    }

    /// A folder where the state keeps its manifest, a pipe where it keeps its lock: neither
    /// blocks a run (the rename over a folder, the truncation of a pipe would fail on every
    /// run); each is moved aside, kept as it was, and the state built anew.
    @Test func aFolderOrAPipeAtAStateFilesNameIsMovedAsideAndTheStateRebuilt() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let state = journal + ".state"
        #expect(try respond(data, stub: stub, journal: journal).status == 0)
        #expect(stub.requests.count == 1)
        try FileManager.default.removeItem(atPath: state + "/manifest")
        try FileManager.default.createDirectory(atPath: state + "/manifest", withIntermediateDirectories: false)
        try FileManager.default.removeItem(atPath: state + "/lock")
        #expect(mkfifo(state + "/lock", 0o600) == 0)
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("was not a file (moved aside as"), "\(run.stderr)")
        #expect(stub.requests.count == 1, "answered once")
        let names = try FileManager.default.contentsOfDirectory(atPath: state)
        #expect(names.contains("manifest.not-a-file.1") || names.contains("lock.not-a-file.1"), "\(names)")
        let again = try respond(data, stub: stub, journal: journal)
        #expect(again.status == 0 && !again.stderr.contains("not a file"), "\(again.stdout)\(again.stderr)")
    }

    @Test(arguments: [4_040_002, 4_040_004, 4_040_006])
    func applesNotFoundRetryCodesAreRetried(code: Int) throws {
        let data = try data(label: "\(#function)\(code)")
        let stub = try APIStub(
            [["status": 404, "body": ["errorCode": code, "errorMessage": "not found, retry"]], ["status": 202]],
            label: "\(#function)\(code)")
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(stub.requests.count == 2)
        #expect(try journalStates(journal) == ["sending", "sent"])
    }

    @Test func aPlantedLockLinkIsRefusedAndItsTargetUntouched() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let folder = try TestFiles.temporaryDirectory("journal")
        let journal = folder + "/journal.jsonl"
        let victim = folder + "/precious.txt"
        try TestFiles.write("keep me\n", to: victim)
        try FileManager.default.createSymbolicLink(atPath: journal + ".lock", withDestinationPath: victim)
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status != 0)
        #expect(run.stderr.contains("symbolic link"), "\(run.stderr)")
        #expect(try TestFiles.read(victim) == "keep me\n")
        #expect(stub.requests.isEmpty)
    }

    @Test func aJournalThatIsALinkIsRefused() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let folder = try TestFiles.temporaryDirectory("journal")
        let victim = folder + "/precious.jsonl"
        try TestFiles.write("", to: victim)
        try FileManager.default.createSymbolicLink(atPath: folder + "/journal.jsonl", withDestinationPath: victim)
        let run = try respond(data, stub: stub, journal: folder + "/journal.jsonl")
        #expect(run.status != 0)
        #expect(run.stderr.contains("symbolic link"), "\(run.stderr)")
        #expect(try TestFiles.read(victim).isEmpty)
        #expect(stub.requests.isEmpty)
    }

    @Test func aJournalOthersCanReadIsMadeOwnerOnly() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        try TestFiles.write("", to: journal)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: journal)
        let run = try respond(data, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: ") && run.stderr.contains("0600"), "\(run.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: journal)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        for companion in [journal + ".lock"] {
            let companionMode = try FileManager.default.attributesOfItem(atPath: companion)[.posixPermissions] as? Int
            #expect(companionMode == 0o600, "\(companion)")
        }
    }

    @Test func aKeyFileFarLargerThanAKeyIsRefusedBeforeItIsRead() throws {
        let data = try data()
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal") + "/journal.jsonl"
        let key = try privateTestKey()
        // A real key's lines, then 40 MB more of base64: what a wrong file (or a hostile one) looks like.
        let text = try TestFiles.read(key)
        let line = String(repeating: "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB", count: 1) + "\n"
        var huge = "-----BEGIN PRIVATE KEY-----\n"
        huge += String(repeating: line, count: 40 * 1024 * 1024 / line.utf8.count)
        huge += "-----END PRIVATE KEY-----\n" + text
        try TestFiles.write(huge, to: key)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        let run = try respond(data, stub: stub, journal: journal, key: key)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("--key") && run.stderr.contains("bytes"), "\(run.stderr)")
        #expect(stub.requests.isEmpty)
    }
}
