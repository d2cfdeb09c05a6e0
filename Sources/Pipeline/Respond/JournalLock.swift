import Support

/// One `respond` at a time per journal: an exclusive lock on `JOURNAL.lock`.
///
/// The lock file holds the process id of its holder so a second run can say who has it. A link
/// planted at that name is refused, never written through.
package final class JournalLock {
    private let file: FileDescriptor

    package init(journal: String) throws {
        let path = journal + ".lock"
        file = try FileDescriptor.openForLocking(path)
        _ = try file.makeOwnerOnly()
        guard try file.tryLockExclusively() else {
            let bytes = (try? FileDescriptor.readAll(path)) ?? []
            let holder = String(decoding: bytes.filter { $0 >= 0x20 }, as: UTF8.self).trimmingSpaces
            throw JournalBusy(journal: journal, holder: holder)
        }
        try file.replaceContent(Array("\(FileSystem.processID)\n".utf8))
    }
}

/// Another `respond` holds the journal.
package struct JournalBusy: DiagnosticError {
    package var journal: String
    package var holder: String

    package var diagnostic: Diagnostic {
        Diagnostic(
            "another refund-cost respond (process \(holder.isEmpty ? "unknown" : holder)) is answering with \(journal); "
                + "this run stops so that no request gets two answers. It needs no action: the next run picks up what is left.")
    }
}
