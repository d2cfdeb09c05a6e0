import Foundation
import Testing

@testable import Attribution
@testable import Ingest
@testable import Pipeline
@testable import Support
@testable import TestSupport

/// A step checks each cost file against the snapshot once, by name, then opens it again for
/// each part it reads: a file swapped in between is refused at the opening, on the descriptor
/// opened, not read.
@Suite("Files pinned to what the snapshot saw")
struct PinnedFileTests {
    @Test func aCostFileSwappedAfterTheCheckIsRefusedWhenOpened() throws {
        let data = try copyOfSample("pinned")
        let window = try #require(ReportWindow(month: "2026-10"))
        var options = try reportOptions(data: data, out: try TestFiles.temporaryDirectory("pinned-out"), window: window)
        options.verifiedFilesRecord = nil
        let snapshot = try LedgerSnapshot(Pipeline(options, rejects: RejectLog(keepingAll: true)))
        let file = try #require(snapshot.layout.costFiles.first { $0.hasSuffix("2026-09.csv") })
        try snapshot.checkCostFiles([file])
        // Read as it is: the pin holds.
        let bytes = try FileDescriptor.openForReading(file).readAll()

        // The same bytes, size and modification time, in another file put in its place.
        let swapped = file + ".new"
        try Data(bytes).write(to: URL(fileURLWithPath: swapped))
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: swapped)
        #expect(rename(swapped, file) == 0)
        let opened = Result { () throws(SystemError) in try FileDescriptor.openForReading(file) }
        guard case .failure(let error) = opened else {
            Issue.record("the file put in the snapshot's file's place was opened")
            return
        }
        #expect(
            error.description
                == "\(file): cannot open for reading: this cost file changed, appeared or went away after the snapshot "
                + "was made (its size, its inode, or the time its bytes or its inode changed, differs): make the snapshot "
                + "again, then every partial, so that every step reads the same rows")
        // Another file, not pinned, opens as always.
        _ = try FileDescriptor.openForReading(data + "/accounts.csv")
    }
}
