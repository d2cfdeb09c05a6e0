import Foundation
import Testing

@testable import TestSupport

/// Every example a `--help` page shows runs as written from the repository root, succeeds,
/// and writes nothing into the repository: a user copies them first.
@Suite("Help examples", .serialized)
struct HelpExampleTests {
    /// In the order a user would try them: the distributed steps build on each other.
    static let commands = [
        "report", "validate", "explain", "generate", "export-access", "respond", "snapshot", "partial", "settle", "merge",
        "publish",
    ]

    func shell(_ command: String, in folder: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    func examples(of command: String) throws -> [String] {
        let help = try runTool([command, "--help"]).stdout
        guard let section = help.range(of: "\nEXAMPLES:\n") else { return [] }
        return help[section.upperBound...].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("refund-cost ") }
    }

    @Test func everyExampleRunsAndWritesNothingIntoTheRepository() throws {
        let root = TestFiles.packageRoot
        try? FileManager.default.removeItem(atPath: "/tmp/refund-cost-example")
        let before = try shell("git status --porcelain --untracked-files=all", in: root)
        var ran = 0
        for command in Self.commands {
            let shown = try examples(of: command)
            #expect(!shown.isEmpty, "\(command) --help shows an example")
            for example in shown {
                let line = toolExecutable().path + example.dropFirst("refund-cost".count)
                let run = try shell(line, in: root)
                #expect(run.status == 0, "\(example)\n\(run.output.suffix(800))")
                ran += 1
            }
        }
        #expect(ran >= 15)
        let after = try shell("git status --porcelain --untracked-files=all", in: root)
        #expect(after.output == before.output, "the examples wrote into the repository")
    }
}
