import Foundation
import Testing

@testable import Attribution
@testable import Report
@testable import Support
@testable import TestSupport

/// What a finance lead reads on the page, beyond the numbers the CSV files hold: dates as a
/// person says them, the words explained, the leak against the cost it is part of.
@Suite("Report page reading")
struct ReportPageReadingTests {
    static let page = TestFiles.packageRoot + "/reports/2026-10/report.html"

    @Test func theHeaderSaysTheWindowAndTheAsOfTimeInWords() throws {
        let html = try TestFiles.read(Self.page)
        #expect(
            html.contains(
                "1 to 31 October 2026; App Store and Google Play data as of 1 November 2026, 00:00 UTC; amounts in USD."))
        #expect(!html.contains("<p class=\"sub\">Window"), "no ISO timestamps in the header")

        let day = Int64(86_400_000)
        let october = Timestamp(milliseconds: 1_790_812_800_000)
        func window(_ from: Int64, _ to: Int64) -> ReportWindow {
            ReportWindow(
                start: Timestamp(milliseconds: october.milliseconds + from * day),
                end: Timestamp(milliseconds: october.milliseconds + to * day), label: "x")
        }
        #expect(PageText.days(window(2, 17)) == "3 to 17 October 2026")
        #expect(PageText.days(window(-3, 4)) == "28 September to 4 October 2026")
        #expect(PageText.days(window(61, 97)) == "1 December 2026 to 5 January 2027")
        #expect(PageText.days(window(0, 1)) == "1 October 2026")
        #expect(PageText.timeName(Timestamp(milliseconds: october.milliseconds + 3_723_000)) == "1 October 2026, 01:02:03 UTC")
    }

    @Test func theClassesAndTermsAreExplainedOnThePage() throws {
        let html = try TestFiles.read(Self.page)
        guard let start = html.range(of: "<h2>Words on this page</h2>") else {
            Issue.record("no glossary")
            return
        }
        let glossary = String(html[start.upperBound...])
        for term in [
            "premature", "unlinked", "unentitled", "billing grace, unpaid", "after refund", "leak", "beyond grace",
            "sunk cost",
        ] {
            #expect(glossary.contains("<dt>\(term)</dt>"), "\(term)")
        }
    }

    /// From trend.csv by hand: September leaked 22.497774 + 2.478224 = 24.975998 of 1,063.414141
    /// served (2.35%); October 13.773109 + 8.528700 = 22.301809 of 1,684.121685 (1.32%), both stores.
    /// (Google Play's orders leaked nothing: the sample's servers cut them off at each void.)
    @Test func theLeakIsShownAsAShareOfCostMonthByMonth() throws {
        let html = try TestFiles.read(Self.page)
        // Each cell carries its column's heading, for the phone's one card per row.
        func row(_ month: String, _ cost: String, _ leaked: String, _ share: String) -> String {
            "<tr><td data-label=\"month\">\(month)</td><td data-label=\"cost served (USD)\" class=\"n\">\(cost)</td>"
                + "<td data-label=\"leaked (USD)\" class=\"n\">\(leaked)</td><td data-label=\"leak share of cost\" class=\"n\">\(share)</td></tr>"
        }
        #expect(html.contains(row("September 2026", "1,063.41", "24.98", "2.3%")))
        #expect(html.contains(row("October 2026 (report month)", "1,684.12", "22.30", "1.3%")))
    }
}
