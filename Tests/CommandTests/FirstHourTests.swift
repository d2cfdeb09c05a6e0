import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// A new user's first hour, each surprise a first run met, through the real command line.
@Suite("The first hour")
struct FirstHourTests {
    let october = AppStoreFixture.october
    let day = AppStoreFixture.day
    let hour = AppStoreFixture.hour

    @Test func noCommandIsAUsageErrorAndFetchHasAHelpOfItsOwn() throws {
        let alone = try runTool([])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("USAGE: refund-cost COMMAND") && alone.stdout.isEmpty, "\(alone.stderr)")
        let help = try runTool(["fetch", "--help"])
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.contains("fetch notifications") && help.stdout.contains("fetch transactions"), "\(help.stdout)")
        let fetch = try runTool(["fetch"])
        #expect(fetch.status == 2)
        #expect(fetch.stderr.contains("fetch notifications") && fetch.stderr.contains("fetch transactions"))
    }

    @Test(arguments: [
        ["report", "--month", "2026-10", "--out", "OUT"], ["validate"], ["explain", "--account", "a1"],
        ["export-access", "--out", "OUT/access.csv"],
    ])
    func aDataFolderThatIsNotThereIsAUsageError(command: [String]) throws {
        let base = try TestFiles.temporaryDirectory("base")
        let arguments =
            [command[0], "--data", base + "/no-such-folder"]
            + command.dropFirst().map { $0.replacingOccurrences(of: "OUT", with: base + "/out") }
        let run = try runTool(arguments)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("--data") && run.stderr.contains("there is none at this path"), "\(run.stderr)")
    }

    @Test func eachHelpSaysItsOwnDefaultAsOf() throws {
        func asOfLine(_ command: [String]) throws -> String {
            let help = try runTool(command + ["--help"])
            return help.stdout.split(separator: "\n").first { $0.contains("--as-of TIME") }.map(String.init) ?? ""
        }
        #expect(try asOfLine(["report"]).contains("(default: the window's end)"))
        #expect(try asOfLine(["snapshot"]).contains("(default: the window's end)"))
        #expect(try asOfLine(["respond"]).contains("(default: now by this clock"))
        #expect(try asOfLine(["explain"]).contains("(default: none: everything signed is read)"))
        #expect(try asOfLine(["validate"]).contains("(default: none: everything signed is read)"))
        for command in ["report", "respond", "explain", "validate"] {
            #expect(!(try asOfLine([command])).contains("other commands"), "\(command)")
        }
        // Every file a report writes is listed, from the list the report writes them by.
        let report = try runTool(["report", "--help"])
        for file in ["allocation.csv", "family_spend.csv", "consumption_responses.jsonl", "run.json", "report.html"] {
            #expect(report.stdout.contains(file), "\(file)")
        }
    }

    @Test func generateSaysItsDataIsSignedByATestRootAndTheNextCommandWorks() throws {
        let base = try TestFiles.temporaryDirectory("generated")
        let out = base + "/set"
        let generate = try runTool(["generate", "--out", out, "--accounts", "60", "--seed", "4"])
        #expect(generate.status == 0, "\(generate.stderr)")
        let lines = generate.stdout.split(separator: "\n").map(String.init)
        let next = try #require(lines.last).trimmingCharacters(in: .whitespaces)
        #expect(next == "refund-cost validate --data \(out) --trust-root \(out)/test-root.der", "\(generate.stdout)")
        #expect(generate.stdout.contains("signed by a test certificate chain"))
        // The exact next command, as printed: it verifies and passes.
        let run = try runTool(Array(next.split(separator: " ").dropFirst().map(String.init)) + ["--verified-files", "none"])
        #expect(run.status == 0, "\(run.stderr)")
        let quiet = try runTool(["generate", "--out", base + "/quiet", "--accounts", "30", "--seed", "4", "--quiet"])
        #expect(quiet.status == 0 && quiet.stdout == base + "/quiet\n", "quiet prints the folder only: \(quiet.stdout)")
    }

    @Test func aRejectedSignedPayloadQuotesTheFieldNeverTheLine() throws {
        let base = try TestFiles.temporaryDirectory("generated")
        let out = base + "/set"
        #expect(try runTool(["generate", "--out", out, "--accounts", "60", "--seed", "4", "--quiet"]).status == 0)
        // Without the test root, no signature reaches a trusted root: every signed line is refused.
        let run = try runTool(["validate", "--data", out, "--trust-root", TestFiles.fixture("apple/certs/AppleRootCA-G3.cer")])
        #expect(run.status == 1)
        let rejects = run.stderr.split(separator: "\n").filter { $0.contains(": error: signedPayload \"") }
        try #require(!rejects.isEmpty, "\(run.stderr.prefix(600))")
        for reject in rejects {
            let value = reject.split(separator: "\"", maxSplits: 2)[1]
            #expect(value.count <= 80, "\(reject)")
            #expect(value.hasPrefix("eyJ"), "the JWS of the field, not the JSON line: \(reject)")
        }
    }

    @Test func validateNamesAmbiguousFamilyLinksInsteadOfNoProblems() throws {
        // Two buyers of the same product in the same minute; a member gets it an hour later: it
        // could be either's, so it is linked to neither.
        var fixture = AppStoreFixture()
        let t0 = october + day
        for (id, account) in [("500", "buyer-a"), ("501", "buyer-b")] {
            fixture.notify(
                "ONE_TIME_CHARGE", uuid: "buy-\(id)", signed: t0,
                transaction: AppStoreFixture.transaction(id, purchase: t0, signed: t0))
            fixture.link(account, id)
        }
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "share", signed: t0 + hour,
            transaction: AppStoreFixture.transaction("600", ownership: "FAMILY_SHARED", purchase: t0 + hour, signed: t0 + hour))
        fixture.link("member", "600")
        let data = try fixture.write()
        let run = try runTool(["validate", "--data", data])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("no problems found"), "\(run.stdout)")
        #expect(run.stdout.contains("1 family member matches more than one purchase"), "\(run.stdout)")
    }
}
