import Foundation
import Testing

@testable import Ingest
@testable import Pipeline
@testable import Support
@testable import TestSupport

/// `respond` keeps what it read between runs (`JOURNAL.state/`) and reads only what arrived
/// since: every answer it sends must be the answer a run from scratch gives on the same bytes.
@Suite("respond: the state kept between runs")
struct RespondStateTests {
    static let asOf = "2026-11-01T00:00:00Z"

    /// A data folder, its October notifications and cost rows arriving in pieces.
    final class Arrivals {
        let full: String
        let live: String
        /// The lines of each arriving file not in the live folder yet, in order.
        var pending: [String: [Substring]] = [:]
        var header: [String: Substring] = [:]
        var random: SeededRandom

        init(label: String, accounts: Int, seed: UInt64) throws {
            let root = try TestFiles.temporaryDirectory("state-" + label)
            full = root + "/full"
            live = root + "/live"
            random = SeededRandom(seed)
            let generate = try runTool([
                "generate", "--out", full, "--accounts", "\(accounts)", "--seed", "\(seed)", "--open-requests", "12", "--quiet",
            ])
            #expect(generate.status == 0, "\(generate.stderr)")
            try FileManager.default.copyItem(atPath: full, toPath: live)
            // What was there at the last run: part of October's notifications and cost rows.
            for name in ["notifications/2026-10.jsonl", "costs/2026-10.csv"] {
                var lines = try TestFiles.read(full + "/" + name).split(separator: "\n", omittingEmptySubsequences: false)
                if lines.last?.isEmpty == true { lines.removeLast() }
                let isCSV = name.hasSuffix(".csv")
                if isCSV { header[name] = lines.removeFirst() }
                let kept = lines.count * random.between(30, 60) / 100
                try write(lines[..<kept], header: header[name], to: live + "/" + name)
                pending[name] = Array(lines[kept...])
            }
        }

        private func write(_ lines: ArraySlice<Substring>, header: Substring?, to path: String) throws {
            let text = ((header.map { [$0] } ?? []) + lines).map { $0 + "\n" }.joined()
            try TestFiles.write(text, to: path)
        }

        /// The next few lines of `name`, taken from what is pending.
        private func take(_ name: String) -> ArraySlice<Substring> {
            let lines = pending[name] ?? []
            let count = min(lines.count, max(1, lines.count * random.between(20, 50) / 100))
            pending[name] = Array(lines[count...])
            return lines[..<count]
        }

        /// Appends the next lines of `name` to it, as an app server appends to its log.
        func append(_ name: String) throws {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: live + "/" + name))
            handle.seekToEndOfFile()
            handle.write(Data(take(name).map { $0 + "\n" }.joined().utf8))
            try handle.close()
        }

        /// Puts the next lines of `name` in a new file beside it (a cost file with its header).
        func newFile(from name: String, called newName: String) throws {
            try write(take(name), header: header[name], to: live + "/" + newName)
        }

        /// The rest of every arriving file, appended.
        func appendTheRest() throws {
            for name in pending.keys.sorted() where !(pending[name] ?? []).isEmpty {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: live + "/" + name))
                handle.seekToEndOfFile()
                handle.write(Data((pending[name] ?? []).map { $0 + "\n" }.joined().utf8))
                try handle.close()
                pending[name] = []
            }
        }

        /// A file already read changed in its middle: one row of September's costs removed.
        func rewriteSeptember() throws {
            let path = live + "/costs/2026-09.csv"
            var lines = try TestFiles.read(path).split(separator: "\n")
            lines.remove(at: lines.count / 2)
            try TestFiles.write(lines.map { $0 + "\n" }.joined(), to: path)
        }
    }

    /// What a fresh run (no journal, no state) would send: transaction and body by request.
    func freshAnswers(_ data: String) throws -> [String: (transaction: String, body: String)] {
        let journal = try TestFiles.temporaryDirectory("fresh") + "/journal.jsonl"
        let run = try runTool(["respond", "--data", data, "--journal", journal, "--as-of", Self.asOf, "--dry-run"])
        #expect(run.status == 0, "\(run.stderr)")
        var answers: [String: (String, String)] = [:]
        let lines = run.stdout.split(separator: "\n").map(String.init)
        for (index, line) in lines.enumerated() where line.hasPrefix("would send PUT ") {
            // "would send PUT URL/consumption/ID  (UUID, answer by ...)", then the headers, then "  body {...}".
            let transaction = line.split(separator: " ")[3].split(separator: "/").last.map(String.init) ?? ""
            let uuid = line.split(separator: "(")[1].split(separator: ",")[0]
            let body = lines[index + 2].trimmingCharacters(in: .whitespaces).dropFirst("body ".count)
            answers[String(uuid)] = (transaction, String(body))
        }
        return answers
    }

    /// The bodies the journal says were sent, by request.
    func sentBodies(_ journal: String) throws -> [String: String] {
        var sent: [String: String] = [:]
        for line in try TestFiles.read(journal).split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard object["state"] as? String == "sent", let uuid = object["notificationUUID"] as? String else { continue }
            let body = try JSONSerialization.data(withJSONObject: try #require(object["body"]), options: [.sortedKeys])
            #expect(sent[uuid] == nil, "one answer per request: \(uuid) was sent twice")
            sent[uuid] = String(decoding: body, as: UTF8.self)
        }
        return sent
    }

    func sorted(_ body: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(body.utf8))
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A respond run against `stub`, as cron would start it.
    func respondArguments(_ data: String, stub: APIStub, journal: String, extra: [String] = []) throws -> [String] {
        [
            "respond", "--data", data, "--journal", journal, "--key", try privateTestKey(), "--key-id", "TEST123456",
            "--issuer-id", "57246542-96fe-1a63-e053-0824d011072a", "--bundle-id", "com.example.app", "--api-url", stub.url,
            "--as-of", Self.asOf, "--max-wait", "20s",
        ] + extra
    }

    func respond(_ data: String, stub: APIStub, journal: String, extra: [String] = []) throws -> ToolRun {
        try runTool(try respondArguments(data, stub: stub, journal: journal, extra: extra))
    }

    @Test(arguments: [UInt64(11), 29])
    func everyAnswerIsTheAnswerOfARunFromScratch(seed: UInt64) throws {
        let arrivals = try Arrivals(label: "\(seed)", accounts: 300, seed: seed)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal-\(seed)") + "/journal.jsonl"
        enum Step: CaseIterable {
            case notifications, costs, newCostFile, newNotificationFile, rewrite, editInPlace, editThenAppend, metadata
            case removeAugust, regrowAugust, damage
        }
        var steps: [Step] = (0..<5).map { _ in Step.allCases[arrivals.random.between(0, 2)] }
        for step in [Step.newCostFile, .newNotificationFile, .editInPlace, .metadata, .damage] {
            steps.insert(step, at: arrivals.random.between(0, steps.count))
        }
        for step in [Step.rewrite, .editThenAppend] { steps.insert(step, at: arrivals.random.between(1, steps.count)) }
        let removal = arrivals.random.between(0, steps.count)
        steps.insert(.removeAugust, at: removal)
        steps.insert(.regrowAugust, at: arrivals.random.between(removal + 1, steps.count + 1))
        let august = arrivals.live + "/costs/2026-08.csv"
        let augustRows = try TestFiles.read(august)
        var answered: [String: String] = [:]
        for (number, step) in ([nil] + steps.map(Optional.some) + [nil]).enumerated() {
            var extra: [String] = []
            switch step {
            case .notifications: try arrivals.append("notifications/2026-10.jsonl")
            case .costs: try arrivals.append("costs/2026-10.csv")
            case .newCostFile: try arrivals.newFile(from: "costs/2026-10.csv", called: "costs/2026-10-late-\(number).csv")
            case .newNotificationFile:
                try arrivals.newFile(from: "notifications/2026-10.jsonl", called: "notifications/2026-10-z\(number).jsonl")
            case .rewrite: try arrivals.rewriteSeptember()
            case .editInPlace:
                // Rows in the middle of September given to another account, the size kept.
                let path = arrivals.live + "/costs/2026-09.csv"
                let size = FileSystem.fileSize(path) ?? 0
                try Self.editCostsInPlace(path, bytes: (size / 4)..<(size * 3 / 4))
            case .editThenAppend:
                // Edited in place, then grown: found by the daily check, run now.
                let path = arrivals.live + "/costs/2026-10.csv"
                let size = FileSystem.fileSize(path) ?? 0
                try Self.editCostsInPlace(path, bytes: (size / 4)..<(size * 3 / 4))
                try arrivals.append("costs/2026-10.csv")
                extra = ["--full-check"]
            case .metadata:
                #expect(chmod(arrivals.live + "/fx.csv", 0o640) == 0)
                let touched = arrivals.live + "/notifications/2026-09.jsonl"
                try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: touched)
            case .removeAugust: try FileManager.default.removeItem(atPath: august)
            case .regrowAugust: try TestFiles.write(augustRows, to: august)
            case .damage:
                let usage = try #require(try Self.stateFiles(journal + ".state", "usage.").first)
                var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: usage)))
                if !bytes.isEmpty { bytes[bytes.count / 2] ^= 0x41 }
                try Data(bytes).write(to: URL(fileURLWithPath: usage))
                try arrivals.append("notifications/2026-10.jsonl")
            case nil: if number > 0 { try arrivals.appendTheRest() }
            }
            let run = try respond(arrivals.live, stub: stub, journal: journal, extra: extra)
            #expect(run.status == 0, "step \(number) (\(String(describing: step))): \(run.stdout)\(run.stderr)")
            // Only the first run and a damaged state (found when a run reads the damaged block)
            // read everything; appends and new files are read, a changed file alone again, and a
            // change of metadata reads nothing.
            let rebuilt = run.stderr.contains("was built from every file")
            #expect(rebuilt == (number == 0 || run.stderr.contains("it is damaged")), "step \(number): \(run.stderr)")
            let again = run.stderr.split(separator: "\n").filter { $0.contains("read again alone") }
            switch step {
            case .rewrite, .editInPlace:
                #expect(
                    again.contains { $0.contains("2026-09.csv") }, "step \(number): the file read again is named: \(run.stderr)")
            case .editThenAppend:
                #expect(rebuilt || again.contains { $0.contains("2026-10.csv") }, "step \(number): \(run.stderr)")
            case .metadata:
                #expect(again.isEmpty, "step \(number): a change of metadata reads nothing again: \(run.stderr)")
            default:
                break
            }

            let fresh = try freshAnswers(arrivals.live)
            let sent = try sentBodies(journal)
            let sentNow = sent.filter { answered[$0.key] == nil }
            // Nothing lost: every request a fresh run would answer and this journal had not is answered now.
            #expect(
                Set(sentNow.keys) == Set(fresh.keys).subtracting(answered.keys),
                "step \(number): sent \(sentNow.keys.sorted()), fresh \(fresh.keys.sorted())")
            for (uuid, body) in sentNow {
                let expected = try #require(fresh[uuid], "step \(number): \(uuid) sent, but a fresh run does not answer it")
                #expect(try sorted(expected.body) == body, "step \(number), request \(uuid)")
            }
            answered.merge(sentNow) { first, _ in first }
        }
        #expect(answered.count == 12, "the 12 open requests, each answered once: \(answered.count)")
        #expect(Set(answered.values).count > 3, "answers that differ, so that equal ones mean something")
        #expect(stub.requests.count == answered.count)
    }

    @Test func aRunKilledWhileItWritesItsStateLeavesTheLastOneWhole() throws {
        let arrivals = try Arrivals(label: "killed", accounts: 600, seed: 17)
        let stub = try APIStub([["status": 202]])
        let folder = try TestFiles.temporaryDirectory("journal-killed")
        let journal = folder + "/journal.jsonl"
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        try arrivals.appendTheRest()
        let arguments = withTestRoot(try respondArguments(arrivals.live, stub: stub, journal: journal))
        // Killed at ever later moments, each time reading everything again (a changed file),
        // until a run ends before its kill: some kills land while the state is written.
        var finished = false
        var delay = 0.05
        while !finished && delay < 30 {
            try arrivals.rewriteSeptember()
            let process = Process()
            process.executableURL = toolExecutable()
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            finished = process.terminationReason == .exit
            delay *= 1.6
        }
        #expect(finished, "a run that is not killed ends")
        let last = try respond(arrivals.live, stub: stub, journal: journal)
        #expect(last.status == 0, "\(last.stdout)\(last.stderr)")
        #expect(!last.stderr.contains("cannot be read"), "the state left is whole: \(last.stderr)")
        // Every request a run from scratch answers was answered once, with that run's body.
        let fresh = try freshAnswers(arrivals.live)
        let sent = try sentBodies(journal)
        #expect(Set(sent.keys) == Set(fresh.keys), "\(sent.keys.sorted()) vs \(fresh.keys.sorted())")
        var bodies: [String: Set<String>] = [:]
        for request in stub.requests { bodies[request.path, default: []].insert(request.body) }
        #expect(bodies.values.allSatisfy { $0.count == 1 }, "a request sent again is sent with the same body")
        #expect(bodies.count == fresh.count)
        // Only the files the last state names are left: no piece of a killed run's writing.
        let state = journal + ".state"
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: state))
        let manifest = try PackedFile.read(state + "/manifest", kind: RespondState.kind, version: RespondState.version)
        let kept = try CompactCoder.decode(RespondState.self, from: manifest)
        #expect(left == kept.named, "\(left.sorted()) vs \(kept.named.sorted())")
        for kind in ["items", "index", "usage", "claims", "sums"] {
            #expect(left.contains { $0.hasPrefix(kind + ".") }, "\(kind): \(left.sorted())")
        }
    }

    @Test func aStateElsewhereIsRebuiltOnlyForAReasonItNames() throws {
        let arrivals = try Arrivals(label: "elsewhere", accounts: 150, seed: 23)
        let stub = try APIStub([["status": 202]])
        let folder = try TestFiles.temporaryDirectory("journal-elsewhere")
        let journal = folder + "/journal.jsonl"
        let state = folder + "/kept/state"
        func run(_ extra: [String] = []) throws -> ToolRun {
            let run = try respond(arrivals.live, stub: stub, journal: journal, extra: ["--state", state] + extra)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            return run
        }
        func rebuildLines(_ run: ToolRun) -> [Substring] {
            (run.stdout + run.stderr).split(separator: "\n").filter { $0.contains("was built from every file") }
        }
        let first = try run()
        #expect(rebuildLines(first).count == 1 && rebuildLines(first)[0].contains("there is none yet"), "\(first.stdout)")
        #expect(FileSystem.kind(state + "/manifest") == .regularFile, "the state is where --state says")
        #expect(FileSystem.kind(journal + ".state") == .missing, "and nowhere else")
        let mode = try FileManager.default.attributesOfItem(atPath: state)[.posixPermissions] as? Int
        #expect(mode == 0o700, "\(String(mode ?? 0, radix: 8))")
        // Lines appended: read from where the last run stopped, no rebuild.
        try arrivals.append("notifications/2026-10.jsonl")
        try arrivals.append("costs/2026-10.csv")
        #expect(rebuildLines(try run()).isEmpty)
        // An option that changes an answer: one line saying so.
        let regraced = try run(["--grace", "2h"])
        #expect(rebuildLines(regraced).count == 1 && rebuildLines(regraced)[0].contains("other options"), "\(regraced.stdout)")
        // A file changed in its middle: read again alone, in one line naming it.
        try arrivals.rewriteSeptember()
        let rewritten = try run(["--grace", "2h"])
        #expect(rebuildLines(rewritten).isEmpty, "\(rewritten.stderr)")
        let againLines = rewritten.stderr.split(separator: "\n").filter { $0.contains("read again alone") }
        #expect(againLines.count == 1 && againLines[0].contains("costs/2026-09.csv"), "\(rewritten.stderr)")
        // The rest arrives (the open requests come last, as they arrived): every request
        // answered once, as a fresh run answers it.
        try arrivals.appendTheRest()
        #expect(rebuildLines(try run(["--grace", "2h"])).isEmpty)
        let sent = try sentBodies(journal)
        #expect(!sent.isEmpty && stub.requests.count == sent.count)
    }

    /// strace works here (a container may forbid tracing).
    static let tracing: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        process.arguments = ["-qq", "-o", "/dev/null", "/bin/true"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    @Test(.enabled(if: tracing, "strace, to see which files a run opens"))
    func aRunWithNothingNewReadsNoInputAndTheStateIsTheOwners() throws {
        let arrivals = try Arrivals(label: "quiet", accounts: 120, seed: 5)
        let stub = try APIStub([["status": 202]])
        let folder = try TestFiles.temporaryDirectory("journal-quiet")
        let journal = folder + "/journal.jsonl"
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        let state = journal + ".state"
        for entry in try FileManager.default.contentsOfDirectory(atPath: state) + [""] {
            let mode = try FileManager.default.attributesOfItem(atPath: state + "/" + entry)[.posixPermissions] as? Int
            #expect(mode.map { $0 & 0o077 } == 0, "\(entry): \(String(mode ?? 0, radix: 8))")
        }
        // Nothing new: no input is opened (the folders are listed, the files looked at).
        let log = folder + "/opened.txt"
        let quiet = try runTool(
            [
                "respond", "--data", arrivals.live, "--journal", journal, "--key", try privateTestKey(), "--key-id", "TEST123456",
                "--issuer-id", "57246542-96fe-1a63-e053-0824d011072a", "--bundle-id", "com.example.app", "--api-url", stub.url,
                "--as-of", Self.asOf,
            ], openedFiles: log)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdout.contains("nothing new since the last run"), "\(quiet.stdout)\(quiet.stderr)")
        let opened = try TestFiles.read(log).split(separator: "\n").filter { line in
            line.contains("\"" + arrivals.live + "/") && !line.contains("O_DIRECTORY") && !line.contains("test-root.der")
        }
        #expect(opened.isEmpty, "\(opened.joined(separator: "\n"))")
        #expect(try TestFiles.read(log).contains(journal), "the journal itself is read")
        // The same folder spelled another way reads the same state: still nothing new.
        let respelled = try respond(arrivals.live + "/./", stub: stub, journal: journal)
        #expect(respelled.stdout.contains("nothing new since the last run"), "\(respelled.stdout)\(respelled.stderr)")
        #expect(!respelled.stderr.contains("was built from every file"), "\(respelled.stderr)")
    }
}

/// A small generator of pseudo-random numbers with a seed, so a failing sequence comes back.
struct SeededRandom {
    private var state: UInt64

    init(_ seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    /// A number in `low..<high` (or `low` when the range is empty).
    mutating func between(_ low: Int, _ high: Int) -> Int {
        guard high > low else { return low }
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return low + Int(state % UInt64(high - low))
    }
}
