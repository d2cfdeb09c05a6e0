import Testing

@testable import Attribution
@testable import Report
@testable import Support
@testable import TestSupport

/// The page's table of the costliest families, worked out by hand.
@Suite("The page's families")
struct FamilySectionTests {
    typealias F = AppStoreFixture

    /// Twelve families of pro.lifetime, one a day from October 1: purchase 110 + i by acct-p<i>
    /// at t0 + i days, shared an hour later with acct-m<i> (210 + i), each served once three
    /// hours after the share. The families' totals (purchaser + member):
    ///
    /// | family | 110 | 111 | 112 | 113 | 114 | 115 | 116 | 117 | 118 | 119 | 120 | 121 |
    /// | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
    /// | purchaser | 1.00 | 2.00 | 1.50 | 0.50 | 3.00 | 1.00 | 0.25 | 5.00 | 1.00 | 0.15 | 2.50 | 4.00 |
    /// | member | 1.00 | 1.00 | 1.50 | 0.50 | 1.00 | 2.00 | 0.25 | 1.00 | 1.00 | 0.10 | 0.50 | 1.00 |
    /// | total | 2.00 | 3.00 | 3.00 | 1.00 | 4.00 | 3.00 | 0.50 | 6.00 | 2.00 | 0.25 | 3.00 | 5.00 |
    ///
    /// By total, the family first in the file first among equals: 117, 121, 114, 111, 112, 115,
    /// 120, 110, 118, 113; 116 and 119 are left out.
    @Test func theTenCostliestFamiliesFirstInTheFileFirstAmongEquals() throws {
        let (t0, h, d) = (F.october, F.hour, F.day)
        let purchaser = ["1.00", "2.00", "1.50", "0.50", "3.00", "1.00", "0.25", "5.00", "1.00", "0.15", "2.50", "4.00"]
        let member = ["1.00", "1.00", "1.50", "0.50", "1.00", "2.00", "0.25", "1.00", "1.00", "0.10", "0.50", "1.00"]
        var fixture = F()
        for i in 0..<12 {
            let bought = t0 + Int64(i) * d
            fixture.notify(
                "ONE_TIME_CHARGE", uuid: "buy-\(i)", signed: bought,
                transaction: F.transaction("\(110 + i)", purchase: bought, signed: bought))
            fixture.notify(
                "ONE_TIME_CHARGE", uuid: "share-\(i)", signed: bought + h,
                transaction: F.transaction("\(210 + i)", ownership: "FAMILY_SHARED", purchase: bought + h, signed: bought + h))
            fixture.link("acct-p\(i)", "\(110 + i)")
            fixture.link("acct-m\(i)", "\(210 + i)")
            fixture.cost("acct-p\(i)", at: bought + 4 * h, purchaser[i])
            fixture.cost("acct-m\(i)", at: bought + 4 * h, member[i])
        }
        let figures = try octoberFigures(fixture)
        #expect(figures.familySpend.count == 24)
        let html = try FamilySection.html(figures)
        let listed = html.components(separatedBy: "<tr><td>").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(listed == ["117", "121", "114", "111", "112", "115", "120", "110", "118", "113"])
        #expect(html.contains("The largest 10 of 12; all in family_spend.csv, by what the family cost."))
        // 117: acct-p7 5.00 and one member 1.00.
        #expect(
            html.contains(
                "<tr><td>117</td><td>pro.lifetime</td><td>acct-p7</td><td class=\"n\">1</td><td class=\"n\">5.00</td>"
                    + "<td class=\"n\">1.00</td><td class=\"n\">6.00</td></tr>"))
    }
}
