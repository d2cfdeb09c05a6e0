import Foundation
import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Pipeline
@testable import Report
@testable import Support
@testable import Synthetic
@testable import TestSupport
@testable import refund_cost

@Suite("Command line")
struct CommandLineTests {
    @Test func parsesValuesFlagsAndRepeats() throws {
        let parsed = try ArgumentParser.parse(
            ["--data", "in", "--quiet", "--cost-column=cost=amount", "--cost-column", "timestamp=ts", "--max-rejects=3"],
            for: ValidateCommand.spec)
        #expect(try parsed.value(DataOptions.data) == "in")
        #expect(parsed.isSet(DataOptions.quiet))
        #expect(parsed.texts(DataOptions.costColumn) == ["cost=amount", "timestamp=ts"])
        #expect(try parsed.value(DataOptions.maxRejects) == 3)
        let options = try DataOptions(parsed)
        #expect(options.run.costColumns == [.cost: "amount", .timestamp: "ts"])
        #expect(options.maxRejects == 3 && options.quiet && options.data == "in")
        #expect(options.currency == .usd && options.run.grace == .hours(1))
    }

    @Test func typedOptionsConvertOrNameWhatTheyExpect() throws {
        let parsed = try ArgumentParser.parse(
            ["--data", "in", "--grace", "30m", "--threads", "300", "--environment", "Sandbox", "--as-of", "2026-11-01"],
            for: ReportCommand.spec)
        #expect(try parsed.value(DataOptions.grace) == .minutes(30))
        #expect(try parsed.value(DataOptions.environment) == .sandbox)
        #expect(try parsed.value(DataOptions.asOf)?.description == "2026-11-01T00:00:00.000Z")
        do {
            _ = try parsed.value(DataOptions.threads)
            Issue.record("300 threads must be refused")
        } catch {
            #expect(
                error.description.hasPrefix(
                    "error: --threads '300': expected a whole number from 1 to 256\nRun 'refund-cost report --help'"))
        }
        #expect(try parsed.value(ReportCommand.month) == nil)
    }

    @Test func everyCommandDeclaresEachOptionOnce() {
        for command in CommandLineTool.commands {
            let names = command.spec.options.map(\.name)
            #expect(Set(names).count == names.count, "\(command.spec.name) declares an option twice: \(names)")
            #expect(names.last == "help", "\(command.spec.name) ends with --help")
        }
    }

    @Test func unknownOptionSuggestsTheNearestOne() {
        do {
            _ = try ArgumentParser.parse(["--max-reject", "2"], for: ValidateCommand.spec)
            Issue.record("unknown option must fail")
        } catch {
            #expect(error.description.contains("did you mean '--max-rejects'?"))
            #expect(error.description.contains("refund-cost validate --help"))
        }
    }

    @Test func badValuesAreUsageErrors() throws {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--data"], for: ValidateCommand.spec) }
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["stray"], for: ValidateCommand.spec) }
        let parsed = try ArgumentParser.parse(["--max-rejects", "-1", "--cost-column", "price=x"], for: ValidateCommand.spec)
        #expect(throws: UsageError.self) { try parsed.value(DataOptions.maxRejects) }
        #expect(throws: UsageError.self) { try parsed.values(DataOptions.costColumn) }
        #expect(throws: UsageError.self) { try DataOptions(parsed) }
    }

    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runTool(arguments)
        return (result.status, result.stdout, result.stderr)
    }

    @Test func helpAndVersionExitZeroOnStdout() throws {
        let help = try run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("validate"))
        let commandHelp = try run(["validate", "--help"])
        #expect(commandHelp.status == 0)
        #expect(commandHelp.stdout.contains("--cost-column NAME=HEADER"))
        #expect(commandHelp.stdout.contains("EXAMPLES:"))
        let version = try run(["--version"])
        #expect(version.stdout == "refund-cost \(ToolVersion.current)\n")
    }

    @Test func usageErrorsExitTwoWithAHint() throws {
        let unknown = try run(["validat"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("did you mean 'validate'?"))
        let missing = try run(["validate"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("validate needs --data"))
    }

    @Test func validateExitCodesFollowMaxRejects() throws {
        let directory = try TestFiles.temporaryDirectory()
        try TestFiles.write(
            "timestamp,account_id,category,cost\n2026-10-01T00:00:00Z,a1,compute,1.5\nnot-a-time,a2,compute,2\n",
            to: directory + "/costs/october.csv")
        let listing = try TestFiles.temporaryDirectory("listing") + "/rejects.csv"
        let failing = try run(["validate", "--data", directory, "--rejects", listing, "--quiet"])
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("costs/october.csv:3: error: timestamp \"not-a-time\""))
        #expect(try TestFiles.read(listing).hasPrefix("file,line,field,value,reason,rows\n"))
        let inside = try run(["validate", "--data", directory, "--rejects", directory + "/rejects.csv", "--quiet"])
        #expect(inside.status == 2 && inside.stderr.contains("a path outside --data"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/rejects.csv"))
        // The record of verified files is read and written again: never in the folder a report replaces.
        let out = try TestFiles.temporaryDirectory("verified-out")
        let record = try run(
            [
                "report", "--data", directory, "--month", "2026-10", "--out", out, "--max-rejects", "1",
                "--verified-files", out + "/2026-10/verified.tsv", "--quiet",
            ])
        #expect(record.status == 2 && record.stderr.contains("--verified-files"), "\(record.stderr)")
        #expect(record.stderr.contains("expected a path outside \(out)/2026-10"), "\(record.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/2026-10"))
        let tolerated = try run(["validate", "--data", directory, "--max-rejects", "1", "--quiet"])
        #expect(tolerated.status == 0)
        #expect(tolerated.stdout.contains("USD") && tolerated.stdout.contains(" 1.500000\n"))
        // A folder that is not there is a mistake on the command line: a usage error.
        let noData = try run(["validate", "--data", directory + "/missing"])
        #expect(noData.status == 2)
        #expect(noData.stderr.contains("--data") && noData.stderr.contains("there is none at this path"), "\(noData.stderr)")
    }
}

@Suite("report and explain from the command line")
struct ReportCommandLineTests {
    @Test func reportWritesTheMonthAndExplainsAnAccount() throws {
        let out = try TestFiles.temporaryDirectory("out")
        let data = TestFiles.packageRoot + "/Data/sample"
        let cli = CommandLineTests()
        let report = try cli.run(["report", "--data", data, "--month", "2026-10", "--out", out])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("reconciliation holds"))
        #expect(report.stderr.isEmpty)
        // Quiet, a script gets where the report is, and nothing else.
        let quiet = try cli.run(["report", "--data", data, "--month", "2026-10", "--out", out, "--quiet"])
        #expect(quiet.status == 0 && quiet.stdout == out + "/2026-10/\n" && quiet.stderr.isEmpty, "\(quiet.stdout)")
        #expect(FileManager.default.fileExists(atPath: out + "/2026-10/report.html"))
        let explain = try cli.run(["explain", "--data", data, "--account", "acct-000020"])
        #expect(explain.status == 0)
        #expect(explain.stdout.contains("shared from 2000000700001049 of acct-000019: purchase_match"))
        #expect(explain.stdout.contains("family_shared               5.326197"))
    }

    @Test func reportUsageErrors() throws {
        let cli = CommandLineTests()
        let noWindow = try cli.run(["report", "--data", "x", "--out", "y"])
        #expect(noWindow.status == 2)
        #expect(noWindow.stderr.contains("--month YYYY-MM"))
        let badMonth = try cli.run(["report", "--data", "x", "--out", "y", "--month", "2026-13"])
        #expect(badMonth.status == 2)
        let badGrace = try cli.run(["report", "--data", "x", "--out", "y", "--month", "2026-10", "--grace", "soon"])
        #expect(badGrace.status == 2)
        #expect(badGrace.stderr.contains("a duration like 90s, 15m, 1h or 2d"))
    }
}
