import Testing

@testable import Support
@testable import TestSupport

@Suite("Diagnostic: every error in one form")
struct DiagnosticTests {
    @Test func rendersTheThreeLocations() {
        #expect(Diagnostic("no rate", file: "costs/a.csv", line: 12).description == "costs/a.csv:12: error: no rate")
        #expect(Diagnostic("not a folder", file: "in").description == "in: error: not a folder")
        #expect(Diagnostic("no window").description == "error: no window")
    }

    /// A file named by whoever can write a shared folder cannot color or move the terminal.
    @Test func controlCharactersInAPathOrMessageAreShownAsEscapesAndLineBreaksStay() {
        let diagnostic = Diagnostic("holds z\u{1B}[31m rows\nsecond line", file: "parts/z\u{1B}[31mEVIL.rows-0-of-3")
        #expect(
            diagnostic.description
                == "parts/z\\u{1B}[31mEVIL.rows-0-of-3: error: holds z\\u{1B}[31m rows\nsecond line")
        // A line break in the file's path cannot start a line of its own; nor do the marks that
        // turn or break text pass raw.
        let forged = Diagnostic("refused", file: "parts/zz\nsettle: all settled\n.partial\u{200F}\u{2028}\u{FEFF}")
        #expect(
            forged.description
                == "parts/zz\\nsettle: all settled\\n.partial\\u{200F}\\u{2028}\\u{FEFF}: error: refused")
    }

    @Test func aRejectRendersThroughIt() {
        let reject = Reject(file: "costs/a.csv", line: 3, field: "cost", value: "12,5", reason: "not a number")
        #expect(reject.description == "costs/a.csv:3: error: cost \"12,5\": not a number")
        #expect(reject.diagnostic.line == 3)
    }

    @Test func theVerdictListsTheRejectsBeforeAndTheRefusedFilesAfter() {
        let log = RejectLog(keepingFirst: 1)
        try? log.record(Reject(file: "costs/a.csv", line: 3, field: "cost", value: "x", reason: "not a number"))
        try? log.record(Reject(file: "costs/a.csv", line: 4, field: "cost", value: "y", reason: "not a number"))
        try? log.record(
            Reject(file: "costs/b.csv", line: 1, field: "", value: "", reason: "no header", rows: 5, wholeFile: true))
        let verdict = RejectLimitError(log.tally, maxRejects: 0, consequence: "")
        let lines = verdict.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0] == "costs/a.csv:3: error: cost \"x\": not a number")
        #expect(lines[1] == "... and 2 more")
        #expect(lines[2].hasPrefix("error: 7 input rows rejected (3 rejects), more than --max-rejects 0."))
        // A file refused whole is to be fixed, not allowed with a larger --max-rejects.
        #expect(!lines[2].contains("--max-rejects 7"))
        #expect(
            lines[3] == "refused whole: costs/b.csv (5 rows not counted): no header", "its reason, not among the first rejects")
    }

    @Test func aSystemErrorSaysWhereAndWhat() {
        let system = SystemError(operation: "open for reading", path: "fx.csv", code: 2)
        #expect(Diagnostic.of(system).description == "fx.csv: error: cannot open for reading: No such file or directory")
        #expect(system.description == "fx.csv: cannot open for reading: No such file or directory")
    }
}

@Suite("CountLine: one description for run.json, validate and the page")
struct CountLineTests {
    let lines = [
        CountLine(
            "notifications", "notifications",
            .group([
                CountLine("lines", "notification lines read", 1_234),
                CountLine("v1", "of them V1", 0, hiddenWhenZero: true),
                CountLine("by_type", "kept, by type", .breakdown(["REFUND": 2, "DID_RENEW": 5], listed: true)),
            ])),
        CountLine("excluded_environments", "other environments left out", .breakdown([:], listed: false)),
    ]

    @Test func runJSONHasEveryCountUnderItsKey() {
        #expect(
            JSONValue.object(CountLine.json(lines)).compact
                == #"{"notifications":{"lines":1234,"v1":0,"by_type":{"DID_RENEW":5,"REFUND":2}},"excluded_environments":{}}"#)
    }

    @Test func aPersonReadsLabelsAndSkipsTheZerosMarkedSo() {
        let rows = CountLine.rows(lines).map { "\($0.label)=\($0.value)" }
        #expect(
            rows == [
                "notification lines read=1,234", "kept, by type=", "  DID_RENEW=5", "  REFUND=2",
                "other environments left out=none",
            ])
    }
}
