import Support

/// One `respond` at a time per journal, and per state: an exclusive lock on `JOURNAL.lock`, and
/// on the state folder's `lock` (two runs on other journals may share one `--state`).
///
/// The lock file holds the process id of its holder, written when it took the lock (the file's
/// time says since when), so a second run can say who has it. A link planted at that name is
/// refused, never written through. The lock dies with its process.
final class RunLock {
    private let file: FileDescriptor

    /// Takes the lock of `guarded` (the journal, or the state folder) at `path`.
    init(path: String, guarding guarded: String) throws {
        file = try FileDescriptor.openForLocking(path)
        // A second name of another file (a hard link planted here) is never written through.
        guard try file.linkCount() == 1 else {
            throw StateTrustError(
                path: path, problem: "the lock file has another name (a hard link)",
                advice: "remove it (the next run makes its own)")
        }
        _ = try file.makeOwnerOnly()
        guard try file.tryLockExclusively() else {
            let bytes = (try? FileDescriptor.readAll(path)) ?? []
            let holder = String(decoding: bytes.filter { $0 >= 0x20 }, as: UTF8.self).trimmingSpaces
            let since = FileSystem.status(path).map { Timestamp(milliseconds: $0.modified / 1_000_000) }
            throw RespondBusyError(guarded: guarded, lock: path, holder: holder, since: since)
        }
        try file.replaceContent(Array("\(FileSystem.processID)\n".utf8))
    }

    static func journal(_ journal: String) throws -> RunLock { try RunLock(path: journal + ".lock", guarding: journal) }
}

/// Another `respond` holds the journal or the state: nothing to do (the next run picks up what
/// is left), unless it has held it for longer than any run should.
package struct RespondBusyError: DiagnosticError {
    /// How much longer than `--max-wait` a run may hold the lock before it looks stuck: its
    /// reading of the data, and the answers it sends one after another.
    package static let margin = TimeSpan.minutes(15)

    /// The journal or the state folder the lock guards.
    package var guarded: String
    package var lock: String
    package var holder: String
    /// When the holder took the lock.
    package var since: Timestamp?

    /// True when the holder took the lock longer ago than `maxWait` and the margin.
    package func looksStuck(maxWait: TimeSpan, now: Timestamp) -> Bool {
        guard let since else { return false }
        return now.milliseconds - since.milliseconds > maxWait.milliseconds + Self.margin.milliseconds
    }

    private var process: String { "process \(holder.isEmpty ? "unknown" : holder)" }

    /// The one line a run that finds the lock held prints (and exits 0).
    package var busyLine: String {
        "refund-cost respond: another run (\(process)) is answering with \(guarded)"
            + (since.map { " since \($0)" } ?? "") + "; this one stops, and the next picks up what is left"
    }

    package var diagnostic: Diagnostic {
        Diagnostic(
            "another refund-cost respond (\(process)) has held \(lock)"
                + (since.map { " since \($0)" } ?? "")
                + ", longer than --max-wait and \(Self.margin) more: it looks stuck. Check it (ps -p \(holder.isEmpty ? "PID" : holder)) "
                + "and stop it if it is; no request gets two answers either way, and the next run picks up what is left.")
    }
}
