import Foundation
import Testing

@testable import TestSupport

/// Every example a `--help` page shows runs as written from the repository root, succeeds,
/// and writes nothing into the repository: a user copies them first.
@Suite("Help examples", .serialized)
struct HelpExampleTests {
    /// In the order a user would try them, each a test case of its own (a command's examples
    /// together, but generate's, which take longest): the distributed steps build on each
    /// other, and publish loads what an earlier example wrote.
    static let cases: [Case] = [
        Case(["report"]), Case(["validate"]), Case(["explain"]), Case(["generate"], example: 0), Case(["generate"], example: 1),
        Case(["generate"], example: 2), Case(["generate"], example: 3), Case(["export-access"]), Case(["respond"]),
        Case(["snapshot", "split", "decode", "partial", "settle", "merge"]), Case(["publish"]),
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        var commands: [String]
        /// One example of the command's, or all of them.
        var example: Int?

        init(_ commands: [String], example: Int? = nil) {
            self.commands = commands
            self.example = example
        }

        var testDescription: String { commands.joined(separator: ", ") + (example.map { " example \($0 + 1)" } ?? "") }
    }

    func shell(_ command: String, in folder: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        // The distributed steps' examples run as one run, with its secret exported, as their
        // --help says to.
        process.environment = ProcessInfo.processInfo.environment.merging([testStepSecretVariable: testStepSecret]) { $1 }
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

    @Test(arguments: cases)
    func everyExampleRunsAndWritesNothingIntoTheRepository(_ test: Case) throws {
        let root = TestFiles.packageRoot
        if test.commands == Self.cases.first?.commands { try? FileManager.default.removeItem(atPath: "/tmp/refund-cost-example") }
        let before = try shell("git status --porcelain --untracked-files=all", in: root)
        for command in test.commands {
            let shown = try examples(of: command)
            #expect(!shown.isEmpty, "\(command) --help shows an example")
            for (index, example) in shown.enumerated() where test.example == nil || test.example == index {
                let line = toolExecutable().path + example.dropFirst("refund-cost".count)
                let run = try shell(line, in: root)
                #expect(run.status == 0, "\(example)\n\(run.output.suffix(800))")
            }
        }
        let after = try shell("git status --porcelain --untracked-files=all", in: root)
        #expect(after.output == before.output, "the examples wrote into the repository")
    }

    /// A command whose examples are cases one by one has a case for each.
    @Test func everyExampleHasItsCase() throws {
        for command in Set(Self.cases.filter { $0.example != nil }.flatMap(\.commands)) {
            let cases = Self.cases.filter { $0.commands == [command] }.compactMap(\.example)
            #expect(cases == Array(0..<(try examples(of: command).count)), "\(command)'s examples")
        }
    }
}
