import Testing

@testable import Ingest
@testable import Pipeline
@testable import Support
@testable import TestSupport

@Suite("A report that stops")
struct ReportFailureTests {
    @Test func saysWhatStoppedItAndThatThePreviousReportStands() {
        let inner = CSVError.malformed(file: "costs/a.csv", line: 9, detail: "a stray quote")
        let failure = ReportRunError(underlying: inner, destination: "out/2026-10", rejectsFile: "out/2026-10.rejects.csv")
        #expect(
            failure.description
                == "costs/a.csv:9: error: malformed CSV: a stray quote\n"
                + "The previous report in out/2026-10/, if any, is unchanged. The lines rejected so far are in out/2026-10.rejects.csv."
        )
    }
}
