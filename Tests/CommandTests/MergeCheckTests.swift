import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// The steps of a distributed report compare one fingerprint of every option that changes a
/// figure (`RunConfiguration`): a partial read with any other option is refused by the merge.
@Suite("merge refuses partials read another way")
struct MergeCheckTests {
    /// `snapshot`, one partial per cost file of the sample (the second with `extra`), then
    /// `merge` with the options of the first; what the merge said.
    func merge(secondPartialWith extra: [String], label: String = #function) throws -> ToolRun {
        let (root, snapshot, args) = try partials(secondPartialWith: extra, label: label)
        let settled = try runTool(["settle", "--snapshot", snapshot, "--partials", root + "/parts"])
        try #require(settled.status == 0 && settled.stdout.isEmpty, "the sample's files share no request id")
        return try runTool(["merge", "--snapshot", snapshot, "--partials", root + "/parts"] + args)
    }

    /// The snapshot and the partials of `merge(secondPartialWith:)`, in `ROOT/parts`.
    func partials(secondPartialWith extra: [String], label: String) throws -> (
        root: String, snapshot: String, args: [String]
    ) {
        let root = try TestFiles.temporaryDirectory(label)
        let data = TestFiles.packageRoot + "/Data/sample"
        let args = ["--data", data, "--month", "2026-10", "--out", root + "/out"]
        let snapshot = root + "/ledger.snapshot"
        let listing = root + "/cost-files.txt"
        let made = try runTool(["snapshot", "--snapshot", snapshot, "--cost-files", listing] + args)
        try #require(made.status == 0, "\(made.stderr)")
        let files = try TestFiles.read(listing).split(separator: "\n").map(String.init)
        try #require(files.count == 3)
        try FileManager.default.createDirectory(atPath: root + "/parts", withIntermediateDirectories: true)
        for (index, file) in files.enumerated() {
            let partial = try runTool(
                ["partial", "--snapshot", snapshot, "--file", file, "--partial", root + "/parts/p\(index).partial"] + args
                    + (index == 1 ? extra : []))
            try #require(partial.status == 0, "\(partial.stderr)")
        }
        return (root, snapshot, args)
    }

    /// A step's file whose name leaves no room for the files beside it and their temporary
    /// names (255 bytes less 19 for `.group-4095-of-4096` and 19 for `.partial-` and a process
    /// id of ten digits: 217) is refused before anything is written, never left half written.
    @Test func aStepFileNameTooLongForTheFilesBesideItIsRefusedFirst() throws {
        let (root, snapshot, args) = try partials(secondPartialWith: [], label: "long-name")
        let file = try TestFiles.read(root + "/cost-files.txt").split(separator: "\n")[0]
        let folder = root + "/long"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (length, refused) in [(217, false), (218, true)] {
            let name = String(repeating: "p", count: length - ".partial".count) + ".partial"
            let run = try runTool(
                ["partial", "--snapshot", snapshot, "--file", String(file), "--partial", folder + "/" + name] + args)
            #expect(run.status == (refused ? 1 : 0), "\(run.stderr)")
            if refused {
                #expect(run.stderr.contains("its name is 218 bytes; a step file's name takes at most 217"), "\(run.stderr)")
            }
            let written = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(name) }
            #expect(written.sorted() == (refused ? [] : [name, name + ".claims"]), "\(written)")
        }
        // The snapshot's listing of cost files, too long to write under its temporary name,
        // stops the step before the snapshot is written.
        let listed = try runTool(
            [
                "snapshot", "--snapshot", folder + "/s2.snapshot", "--cost-files",
                folder + "/" + String(repeating: "l", count: 250),
            ] + args)
        #expect(listed.status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder + "/s2.snapshot"))
    }

    /// A file put in the partials' folder under a name with a line break prints, wherever an
    /// error names it, a line of its own choosing; settle and merge refuse it, escaped.
    @Test func aStepFileNamedWithALineBreakIsRefused() throws {
        let (root, snapshot, args) = try partials(secondPartialWith: [], label: "line-break-name")
        // No step writes such a name: it is refused before the work is done.
        let file = try TestFiles.read(root + "/cost-files.txt").split(separator: "\n")[0]
        let named = try runTool(
            ["partial", "--snapshot", snapshot, "--file", String(file), "--partial", root + "/parts/p9.partial\nx.partial"]
                + args)
        #expect(named.status == 1)
        #expect(named.stderr.contains("p9.partial\\nx.partial: error: its name holds a line break"), "\(named.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/parts/p9.partial\nx.partial"))
        let forged = "p9.partial\nerror: forged.partial"
        try FileManager.default.copyItem(atPath: root + "/parts/p0.partial", toPath: root + "/parts/" + forged)
        let settled = try runTool(["settle", "--snapshot", snapshot, "--partials", root + "/parts"])
        let merged = try runTool(["merge", "--snapshot", snapshot, "--partials", root + "/parts"] + args)
        for run in [settled, merged] {
            #expect(run.status == 1, "\(run.stdout)")
            #expect(
                run.stderr.contains(root + "/parts/p9.partial\\nerror: forged.partial: error: its name holds a line break"),
                "\(run.stderr)")
            #expect(!run.stderr.split(separator: "\n").contains { $0.hasPrefix("error: forged") }, "\(run.stderr)")
        }
    }

    @Test func partialsReadAlikeMerge() throws {
        let run = try merge(secondPartialWith: [])
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// Options that change how cost files are read, each given in a form that matches none of
    /// the sample's files: the figures would be the same, yet the partial is not the one asked for.
    @Test(arguments: [
        ["--cost-format", "vendor-*.csv:helicone"], ["--cost-column", "vendor-*.csv:cost=usd"], ["--usage-field", "tokens"],
        ["--grace", "2h"],
    ])
    func aPartialReadWithAnotherOptionIsRefused(option: [String]) throws {
        let run = try merge(secondPartialWith: option, label: "refused-\(option[0])")
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stderr.contains("other options"), "\(run.stderr)")
    }
}
