import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// What respond keeps between runs is an input like any other: whatever happens to the data
/// folder or to the state's own files, a run answers as a run from scratch would, and a state
/// that cannot be trusted costs a rebuild, never an answer.
extension RespondStateTests {
    /// Every request the journal answered since `before`, by request: the answers must be those
    /// of a run from scratch on the data as it is now.
    func expectAnswersOfARunFromScratch(
        _ data: String, journal: String, answeredBefore before: [String: String], _ label: String
    ) throws -> [String: String] {
        let fresh = try freshAnswers(data)
        let sent = try sentBodies(journal)
        let sentNow = sent.filter { before[$0.key] == nil }
        #expect(
            Set(sentNow.keys) == Set(fresh.keys).subtracting(before.keys),
            "\(label): sent \(sentNow.keys.sorted()), fresh \(fresh.keys.sorted())")
        for (uuid, body) in sentNow {
            let expected = try #require(fresh[uuid], "\(label): \(uuid) sent, but a fresh run does not answer it")
            #expect(try sorted(expected.body) == body, "\(label), request \(uuid)")
        }
        return sent
    }

    /// Gives every row lying wholly in bytes `range` of the CSV file at `path` to an account
    /// that does not exist, without changing the file's size (`acct-0...` becomes `acct-9...`):
    /// the accounts of those rows lose their usage.
    ///
    /// Returns how many rows changed.
    @discardableResult
    static func editCostsInPlace(_ path: String, bytes range: Range<Int>) throws -> Int {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let size = bytes.count
        let prefix = Array(",acct-0".utf8)
        var start = 0
        var changed = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            defer { start = end + 1 }
            guard start > 0, range.contains(start), range.contains(end) else { continue }
            // timestamp,account_id,...: the account is the second field.
            guard let comma = bytes[start..<end].firstIndex(of: UInt8(ascii: ",")), comma + prefix.count < end,
                Array(bytes[comma..<(comma + prefix.count)]) == prefix
            else { continue }
            bytes[comma + prefix.count - 1] = UInt8(ascii: "9")
            changed += 1
        }
        precondition(bytes.count == size)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return changed
    }

    /// The state's files whose names begin with `prefix` (`usage.`, `items.`, ...).
    static func stateFiles(_ state: String, _ prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: state).filter { $0.hasPrefix(prefix) }.sorted().map {
            state + "/" + $0
        }
    }

    static func rebuildLines(_ run: ToolRun) -> [Substring] {
        (run.stdout + run.stderr).split(separator: "\n").filter { $0.contains("was built from every file") }
    }

    @Test func aFileEditedInPlaceIsReadAgain() throws {
        let arrivals = try Arrivals(label: "edited", accounts: 600, seed: 31)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal-edited") + "/journal.jsonl"
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        var answered = try sentBodies(journal)
        try arrivals.appendAll("costs/2026-10.csv")
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        answered = try sentBodies(journal)
        // The same file as it was, for an answer to compare with.
        let unedited = try TestFiles.temporaryDirectory("unedited") + "/data"
        try FileManager.default.copyItem(atPath: arrivals.live, toPath: unedited)

        // Rows in the middle of the file corrected in place, its size kept (over 128 KB: beyond
        // its first and last 64 KB); then the remaining requests arrive.
        let costs = arrivals.live + "/costs/2026-10.csv"
        let size = try #require(FileSystem.fileSize(costs))
        #expect(size > 256 * 1024, "\(size)")
        #expect(try Self.editCostsInPlace(costs, bytes: 65 * 1024..<(size - 65 * 1024)) > 100)
        #expect(FileSystem.fileSize(costs) == size)
        try arrivals.appendAll("notifications/2026-10.jsonl")
        try FileManager.default.removeItem(atPath: unedited + "/notifications/2026-10.jsonl")
        try FileManager.default.copyItem(
            atPath: arrivals.live + "/notifications/2026-10.jsonl", toPath: unedited + "/notifications/2026-10.jsonl")

        let run = try respond(arrivals.live, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(Self.rebuildLines(run).isEmpty, "one file read again, not everything: \(run.stderr)")
        #expect(run.stderr.contains("costs/2026-10.csv"), "the file read again is named: \(run.stderr)")
        let sent = try expectAnswersOfARunFromScratch(arrivals.live, journal: journal, answeredBefore: answered, "edited")
        // The edit changes an answer: the test would see a stale one.
        let stale = try freshAnswers(unedited)
        let changed = try sent.filter { answered[$0.key] == nil }.filter { uuid, body in
            try stale[uuid].map { try sorted($0.body) } != body
        }
        #expect(!changed.isEmpty, "an answer that depends on the rows edited")
    }

    @Test func anEditHiddenByAnAppendIsFoundByTheFullCheck() throws {
        let arrivals = try Arrivals(label: "hidden", accounts: 600, seed: 37)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal-hidden") + "/journal.jsonl"
        try arrivals.appendAll("costs/2026-10.csv")
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        let answered = try sentBodies(journal)
        // Corrected in place, then grown: the file is larger, its inode the same.
        let costs = arrivals.live + "/costs/2026-10.csv"
        let size = try #require(FileSystem.fileSize(costs))
        #expect(try Self.editCostsInPlace(costs, bytes: 65 * 1024..<(size - 65 * 1024)) > 100)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: costs))
        handle.seekToEndOfFile()
        handle.write(Data("2026-10-30T10:00:00.000Z,acct-000002,api,0.000001,USD,1,token,req-late-1\n".utf8))
        try handle.close()
        try arrivals.appendAll("notifications/2026-10.jsonl")

        let checked = try respond(arrivals.live, stub: stub, journal: journal, extra: ["--full-check"])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(Self.rebuildLines(checked).isEmpty, "\(checked.stderr)")
        #expect(checked.stderr.contains("costs/2026-10.csv"), "the file read again is named: \(checked.stderr)")
        _ = try expectAnswersOfARunFromScratch(arrivals.live, journal: journal, answeredBefore: answered, "hidden")
    }

    @Test func aChangeOfMetadataAloneReadsNothingAgain() throws {
        let arrivals = try Arrivals(label: "metadata", accounts: 200, seed: 41)
        let stub = try APIStub([["status": 202]])
        let folder = try TestFiles.temporaryDirectory("journal-metadata")
        let journal = folder + "/journal.jsonl"
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        // A mode changed, a hard link made (the inode's change time moves), a time touched: the
        // bytes are the same.
        #expect(chmod(arrivals.live + "/fx.csv", 0o600) == 0)
        #expect(link(arrivals.live + "/fx.csv", folder + "/fx-link.csv") == 0)
        #expect(link(arrivals.live + "/costs/2026-09.csv", folder + "/september-link.csv") == 0)
        let october = arrivals.live + "/notifications/2026-10.jsonl"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: october)
        let run = try respond(arrivals.live, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("nothing new since the last run"), "\(run.stdout)\(run.stderr)")
        #expect(!run.stderr.contains("read again"), "\(run.stderr)")
        #expect(Self.rebuildLines(run).isEmpty, "\(run.stderr)")
        // And the next run has nothing to look at either.
        let next = try respond(arrivals.live, stub: stub, journal: journal)
        #expect(next.stdout.contains("nothing new since the last run"), "\(next.stdout)\(next.stderr)")
    }

    @Test func aFileRewrittenRemovedOrRegrownIsReadAgainAlone() throws {
        let arrivals = try Arrivals(label: "rewritten", accounts: 300, seed: 43)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal-rewritten") + "/journal.jsonl"
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        var answered = try sentBodies(journal)
        let august = arrivals.live + "/costs/2026-08.csv"
        let augustRows = try TestFiles.read(august)
        let steps: [(String, () throws -> Void)] = [
            ("rewritten", { try arrivals.rewriteSeptember() }),
            ("removed", { try FileManager.default.removeItem(atPath: august) }),
            ("regrown", { try TestFiles.write(augustRows, to: august) }),
            ("shrunk", { try TestFiles.write(String(augustRows.prefix(augustRows.count / 2)).dropLastLine(), to: august) }),
        ]
        for (label, step) in steps {
            try step()
            try arrivals.append("notifications/2026-10.jsonl")
            let run = try respond(arrivals.live, stub: stub, journal: journal)
            #expect(run.status == 0, "\(label): \(run.stdout)\(run.stderr)")
            #expect(Self.rebuildLines(run).isEmpty, "\(label): the file alone is read again: \(run.stderr)")
            answered = try expectAnswersOfARunFromScratch(arrivals.live, journal: journal, answeredBefore: answered, label)
        }
        try arrivals.appendTheRest()
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        answered = try expectAnswersOfARunFromScratch(arrivals.live, journal: journal, answeredBefore: answered, "the rest")
        #expect(answered.count == 12)
    }

    @Test func aDamagedStateIsRebuiltAndTheRunAnswers() throws {
        let arrivals = try Arrivals(label: "damaged", accounts: 300, seed: 47)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal-damaged") + "/journal.jsonl"
        let state = journal + ".state"
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        var answered = try sentBodies(journal)
        func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
        func write(_ bytes: [UInt8], _ path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
        let damages: [(String, () throws -> Void)] = [
            (
                "a usage file one byte short",
                {
                    let file = try #require(try Self.stateFiles(state, "usage.").first)
                    try write(Array(try bytes(file).dropLast()), file)
                }
            ),
            (
                "an item record whose length is damaged",
                {
                    let file = try #require(try Self.stateFiles(state, "items.").first)
                    var content = try bytes(file)
                    content.replaceSubrange(0..<4, with: [0xFF, 0xFF, 0xFF, 0x0F])
                    try write(content, file)
                }
            ),
            (
                "a usage record removed",
                {
                    let file = try #require(try Self.stateFiles(state, "usage.").first)
                    var content = try bytes(file)
                    let record = 48
                    let middle = content.count / 2 / record * record
                    content.removeSubrange(middle..<(middle + record))
                    try write(content, file)
                }
            ),
            (
                "the claims emptied",
                {
                    for file in try Self.stateFiles(state, "claims.") { try write([], file) }
                }
            ),
            (
                "a byte of the usage changed",
                {
                    let file = try #require(try Self.stateFiles(state, "usage.").first)
                    var content = try bytes(file)
                    content[content.count / 3] ^= 0x5A
                    try write(content, file)
                }
            ),
        ]
        for (label, damage) in damages {
            try damage()
            try arrivals.append("notifications/2026-10.jsonl")
            try arrivals.append("costs/2026-10.csv")
            // A file of another size is found by every run; a block changed in place by the run
            // that reads it, which may not be this one (its answers need none of it), and by
            // the daily check for sure: this run makes it.
            let inPlace = label.hasPrefix("an item record") || label.hasPrefix("a byte")
            let run = try respond(arrivals.live, stub: stub, journal: journal, extra: inPlace ? ["--full-check"] : [])
            #expect(run.status == 0, "\(label): \(run.stdout)\(run.stderr)")
            #expect(Self.rebuildLines(run).count == 1, "\(label): said in one line: \(run.stderr)")
            answered = try expectAnswersOfARunFromScratch(arrivals.live, journal: journal, answeredBefore: answered, label)
        }
    }

    @Test func aStateOthersCanWriteIsTightenedAndRebuilt() throws {
        let arrivals = try Arrivals(label: "loose", accounts: 150, seed: 53)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal-loose") + "/journal.jsonl"
        let state = journal + ".state"
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        let answered = try sentBodies(journal)
        #expect(chmod(state, 0o777) == 0)
        let usage = try #require(try Self.stateFiles(state, "usage.").first)
        #expect(chmod(usage, 0o666) == 0)
        try arrivals.appendTheRest()
        let run = try respond(arrivals.live, stub: stub, journal: journal)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(
            Self.rebuildLines(run).count == 1 && run.stderr.contains("writable by group or others"),
            "what others could write is not trusted: \(run.stderr)")
        for entry in try FileManager.default.contentsOfDirectory(atPath: state) + [""] {
            let mode = try FileManager.default.attributesOfItem(atPath: state + "/" + entry)[.posixPermissions] as? Int
            #expect(mode.map { $0 & 0o077 } == 0, "\(entry): \(String(mode ?? 0, radix: 8))")
        }
        _ = try expectAnswersOfARunFromScratch(arrivals.live, journal: journal, answeredBefore: answered, "loose")
    }

    @Test func aStateFileOfAnotherUserOrALinkStopsTheRun() throws {
        let arrivals = try Arrivals(label: "foreign", accounts: 150, seed: 59)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal-foreign") + "/journal.jsonl"
        let state = journal + ".state"
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        let sentBefore = stub.requests.count
        try arrivals.appendTheRest()
        let usage = try #require(try Self.stateFiles(state, "usage.").first)
        // A file in the state that is a link: never followed, never trusted.
        let moved = usage + ".real"
        #expect(rename(usage, moved) == 0)
        #expect(symlink(moved, usage) == 0)
        let linked = try respond(arrivals.live, stub: stub, journal: journal)
        #expect(linked.status == 1, "\(linked.stdout)\(linked.stderr)")
        #expect(linked.stderr.contains("symbolic link"), "\(linked.stderr)")
        #expect(stub.requests.count == sentBefore, "nothing sent")
        #expect(unlink(usage) == 0 && rename(moved, usage) == 0)
        // A file another user owns (a root test can give it away).
        if getuid() == 0 {
            #expect(chown(usage, 65534, 65534) == 0)
            let foreign = try respond(arrivals.live, stub: stub, journal: journal)
            #expect(foreign.status == 1, "\(foreign.stdout)\(foreign.stderr)")
            #expect(foreign.stderr.contains("owned by another user"), "\(foreign.stderr)")
            #expect(foreign.stderr.contains("remove the state folder"), "it says what to do: \(foreign.stderr)")
            #expect(stub.requests.count == sentBefore, "nothing sent")
            #expect(chown(usage, 0, 0) == 0)
        }
        let mended = try respond(arrivals.live, stub: stub, journal: journal)
        #expect(mended.status == 0, "\(mended.stdout)\(mended.stderr)")
        #expect(stub.requests.count > sentBefore)
    }

    @Test func aStateUsedWithAnotherJournalIsRebuilt() throws {
        let data = try TestFiles.temporaryDirectory("journals") + "/data"
        let generate = try runTool([
            "generate", "--out", data, "--accounts", "150", "--seed", "61", "--open-requests", "4", "--quiet",
        ])
        #expect(generate.status == 0, "\(generate.stderr)")
        let folder = try TestFiles.temporaryDirectory("journals-folder")
        let stub = try APIStub([["status": 202]])
        let shared = folder + "/shared-state"
        // A trial journal answers every request, with the state kept apart.
        let trial = try respond(data, stub: stub, journal: folder + "/trial.jsonl", extra: ["--state", shared])
        #expect(trial.status == 0, "\(trial.stdout)\(trial.stderr)")
        let fresh = try freshAnswers(data)
        #expect(try sentBodies(folder + "/trial.jsonl").count == fresh.count && fresh.count == 4)
        // The same state with the production journal: every request is that journal's to answer.
        let production = try respond(data, stub: stub, journal: folder + "/production.jsonl", extra: ["--state", shared])
        #expect(production.status == 0, "\(production.stdout)\(production.stderr)")
        #expect(Self.rebuildLines(production).count == 1, "\(production.stderr)")
        _ = try expectAnswersOfARunFromScratch(data, journal: folder + "/production.jsonl", answeredBefore: [:], "production")
        // A copy of a journal's state beside another journal.
        try FileManager.default.copyItem(atPath: shared, toPath: folder + "/copied.jsonl.state")
        let copied = try respond(data, stub: stub, journal: folder + "/copied.jsonl")
        #expect(copied.status == 0, "\(copied.stdout)\(copied.stderr)")
        _ = try expectAnswersOfARunFromScratch(data, journal: folder + "/copied.jsonl", answeredBefore: [:], "copied")
    }

    @Test func aStateInUseIsLeftToTheRunThatHoldsIt() throws {
        let arrivals = try Arrivals(label: "held", accounts: 150, seed: 67)
        let stub = try APIStub([["status": 202]])
        let folder = try TestFiles.temporaryDirectory("journal-held")
        let shared = folder + "/state"
        #expect(try respond(arrivals.live, stub: stub, journal: folder + "/a.jsonl", extra: ["--state", shared]).status == 0)
        let sentBefore = stub.requests.count
        let answered = try sentBodies(folder + "/a.jsonl")
        try arrivals.appendTheRest()
        // Another run holds the state (here: a process holding its lock).
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import fcntl, sys, time; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); "
                + "time.sleep(60)",
            shared + "/lock",
        ]
        let said = Pipe()
        holder.standardOutput = said
        try holder.run()
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        #expect(String(decoding: said.fileHandleForReading.availableData, as: UTF8.self).contains("held"))
        let busy = try respond(arrivals.live, stub: stub, journal: folder + "/b.jsonl", extra: ["--state", shared])
        #expect(busy.status == 0, "\(busy.stdout)\(busy.stderr)")
        #expect(busy.stdout.contains("another run"), "one line: \(busy.stdout)\(busy.stderr)")
        #expect(stub.requests.count == sentBefore, "nothing sent while the state is held")
        // Killed outright: the lock dies with its process.
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        let after = try respond(arrivals.live, stub: stub, journal: folder + "/a.jsonl", extra: ["--state", shared])
        #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
        _ = try expectAnswersOfARunFromScratch(
            arrivals.live, journal: folder + "/a.jsonl", answeredBefore: answered, "after the holder")
    }

    @Test func theManifestStaysSmallAsRowsArrive() throws {
        let arrivals = try Arrivals(label: "small", accounts: 300, seed: 71)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal-small") + "/journal.jsonl"
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        let manifest = journal + ".state/manifest"
        let first = try #require(FileSystem.fileSize(manifest))
        for _ in 0..<4 {
            try arrivals.append("costs/2026-10.csv")
            try arrivals.append("notifications/2026-10.jsonl")
            #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        }
        try arrivals.appendTheRest()
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        // Thousands of rows arrived; the manifest names the files that hold them, it does not hold them.
        let last = try #require(FileSystem.fileSize(manifest))
        #expect(last < first + 4096, "\(first) -> \(last) bytes")
    }
}

extension RespondStateTests.Arrivals {
    /// Appends every line of `name` still pending.
    func appendAll(_ name: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: live + "/" + name))
        handle.seekToEndOfFile()
        handle.write(Data((pending[name] ?? []).map { $0 + "\n" }.joined().utf8))
        try handle.close()
        pending[name] = []
    }
}

extension String {
    /// The text up to its last line feed: whole lines only.
    fileprivate func dropLastLine() -> String {
        guard let last = lastIndex(of: "\n") else { return "" }
        return String(self[...last])
    }
}

extension RespondStateTests {
    @Test func aStateFolderOfOtherFilesIsNeverRemovedFrom() throws {
        let arrivals = try Arrivals(label: "notmine", accounts: 120, seed: 73)
        let stub = try APIStub([["status": 202]])
        let folder = try TestFiles.temporaryDirectory("notmine")
        // The operator's own folder, its journal and notes in it, given as --state.
        try TestFiles.write("mine\n", to: folder + "/notes.txt")
        let run = try respond(arrivals.live, stub: stub, journal: folder + "/journal.jsonl", extra: ["--state", folder])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("not respond's state") && run.stderr.contains("notes.txt"), "\(run.stderr)")
        #expect(run.stderr.contains("give --state a folder of its own"), "it says what to do: \(run.stderr)")
        #expect(try TestFiles.read(folder + "/notes.txt") == "mine\n", "nothing of the operator's is removed")
        #expect(stub.requests.isEmpty, "nothing sent")
        // A folder of its own (new, or empty) is made the state's, and the journal may live in it.
        let own = try TestFiles.temporaryDirectory("own")
        let first = try respond(arrivals.live, stub: stub, journal: own + "/journal.jsonl", extra: ["--state", own])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        try arrivals.appendTheRest()
        let second = try respond(arrivals.live, stub: stub, journal: own + "/journal.jsonl", extra: ["--state", own])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(FileManager.default.fileExists(atPath: own + "/journal.jsonl"), "the journal beside the state is left alone")
        #expect(Self.rebuildLines(second).isEmpty, "\(second.stderr)")
    }

    @Test func aHardLinkInTheStateIsNeverWrittenThrough() throws {
        let arrivals = try Arrivals(label: "hardlink", accounts: 120, seed: 79)
        let stub = try APIStub([["status": 202]])
        let folder = try TestFiles.temporaryDirectory("journal-hardlink")
        let journal = folder + "/journal.jsonl"
        let state = journal + ".state"
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        let sentBefore = stub.requests.count
        try arrivals.appendTheRest()
        for name in [
            "lock", try #require(try Self.stateFiles(state, "items.").first).split(separator: "/").last.map(String.init) ?? "",
        ] {
            let victim = folder + "/victim-\(name)"
            try TestFiles.write("the operator's bytes\n", to: victim)
            let path = state + "/" + name
            try FileManager.default.removeItem(atPath: path)
            #expect(link(victim, path) == 0)
            let run = try respond(arrivals.live, stub: stub, journal: journal)
            #expect(run.status == 1, "\(name): \(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains("hard link"), "\(name): \(run.stderr)")
            #expect(try TestFiles.read(victim) == "the operator's bytes\n", "\(name): never written through")
            #expect(stub.requests.count == sentBefore, "nothing sent")
            try FileManager.default.removeItem(atPath: path)
        }
        // With the links gone, the state is rebuilt (its items went with one) and the run answers.
        let mended = try respond(arrivals.live, stub: stub, journal: journal)
        #expect(mended.status == 0, "\(mended.stdout)\(mended.stderr)")
        #expect(stub.requests.count > sentBefore)
    }
}

extension RespondStateTests {
    /// An App Store CSV export is read again whole each time it grows: the lines of its earlier
    /// readings stay in the items until they are most of them, then the state is built anew.
    @Test func theItemsOfAFileReadAgainAndAgainStayBounded() throws {
        let arrivals = try Arrivals(label: "export", accounts: 150, seed: 83)
        let stub = try APIStub([["status": 202]])
        let journal = try TestFiles.temporaryDirectory("journal-export") + "/journal.jsonl"
        let state = journal + ".state"
        #expect(try respond(arrivals.live, stub: stub, journal: journal).status == 0)
        func itemsSize() throws -> Int {
            try Self.stateFiles(state, "items.").compactMap { FileSystem.fileSize($0) }.reduce(0, +)
        }
        let first = try itemsSize()
        let export = arrivals.live + "/notifications/late-export.csv"
        let lines = try TestFiles.read(export).split(separator: "\n")
        var rebuilt = 0
        for round in 0..<24 {
            // The export grows by one of its own lines (Apple's retry of a notification).
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: export))
            handle.seekToEndOfFile()
            handle.write(Data((lines[1 + round % (lines.count - 1)] + "\n").utf8))
            try handle.close()
            let run = try respond(arrivals.live, stub: stub, journal: journal)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            if Self.rebuildLines(run).contains(where: { $0.contains("built anew, smaller") }) { rebuilt += 1 }
            let size = try itemsSize()
            #expect(size <= 3 * first, "round \(round): \(size) bytes of items, \(first) at first")
        }
        let last = try itemsSize()
        #expect(rebuilt >= 1, "the items were built anew at least once (\(first) bytes at first, \(last) now)")
    }
}
