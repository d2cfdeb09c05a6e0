import Foundation
import Testing

@testable import Attribution
@testable import Ingest
@testable import Pipeline
@testable import Support
@testable import TestSupport

/// respond's state read in process: what a file written while a run reads it leaves behind.
@Suite("respond's state, in process")
struct StateReadingTests {
    func reading(_ data: String, folder: String) throws -> StateReading {
        let window = ReportWindow(start: .earliestAccepted, end: .latestAccepted, label: "respond")
        var options = try reportOptions(data: data, out: "", window: window)
        options.data = FileSystem.resolvedPath(data)
        options.verifiedFilesRecord = nil
        return StateReading(folder: folder, options: options, layout: try InputLayout(root: options.data))
    }

    /// A cost file replaced (a corrected export renamed over it) after the run read its rows but
    /// before it looked at the file again: the state never holds the old rows under the new
    /// file's identity; the next run reads the file again.
    @Test(arguments: ["renamed", "rewritten in place"])
    func aFileWrittenWhileItIsReadIsReadAgainByTheNextRun(how: String) throws {
        let root = try TestFiles.temporaryDirectory("while-reading")
        let data = root + "/data"
        #expect(try runTool(["generate", "--out", data, "--accounts", "80", "--seed", "3", "--quiet"]).status == 0)
        let costs = data + "/costs/2026-10.csv"
        let corrected = try TestFiles.read(costs).split(separator: "\n").prefix(5).joined(separator: "\n") + "\n"
        let folder = root + "/state"
        try FileSystem.createDirectory(folder, mode: 0o700)
        var first = try reading(data, folder: folder)
        first.whileReading = {
            if how == "renamed" {
                try TestFiles.write(corrected, to: root + "/corrected.csv")
                try FileManager.default.moveItem(atPath: costs, toPath: root + "/old.csv")
                try FileManager.default.moveItem(atPath: root + "/corrected.csv", toPath: costs)
            } else {
                try TestFiles.write(corrected, to: costs)
            }
        }
        let built = try first.rebuilt(because: "the test")
        var state = built.state
        state.journal = JournalBinding(path: "", device: 0, inode: 0, firstLine: 0, bytes: 0)
        try state.commit(to: folder)
        // The next run: the file is not as the state holds it, so it is read again alone.
        let next = try reading(data, folder: folder)
        let loaded = try #require(try? RespondState.load(folder, settings: next.settings).get())
        let costFile = try #require(loaded.files.firstIndex { $0.path == FileSystem.resolvedPath(costs) })
        let sums = try InputSums.read(try #require(loaded.inputSums), in: folder)
        let change = try loaded.files[costFile].compared(sums: { sums[costFile] }, key: loaded.hash)
        #expect(change != .same, "\(how): \(change)")
        if case .changed = change {} else { Issue.record("\(how): read again whole, not \(change)") }
    }
}
