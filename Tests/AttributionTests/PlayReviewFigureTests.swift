import Foundation
import Testing

@testable import Attribution
@testable import TestSupport

/// What an answer to a Google refund review says, as docs/respond.md states it.
@Suite struct PlayReviewFigureTests {
    /// docs/respond.md's row for `refundPreference`: "`A` stays `B`" or "`A` is `B`", each pair once.
    static func documentedMapping() throws -> [String: String] {
        let doc = try TestFiles.read(TestFiles.packageRoot + "/docs/respond.md")
        let row = try #require(doc.split(separator: "\n").first { $0.hasPrefix("   | `refundPreference` |") })
        var mapping: [String: String] = [:]
        let pattern = try Regex("`([A-Z_]+)` (?:stays|is) `([A-Z_]+)`")
        for match in String(row).matches(of: pattern) {
            if let apple = match.output[1].substring, let google = match.output[2].substring {
                mapping[String(apple)] = String(google)
            }
        }
        return mapping
    }

    @Test func applesThreePreferencesMapOntoGooglesThreeAsTheDocumentationSays() throws {
        let documented = try Self.documentedMapping()
        #expect(documented.count == RefundPreference.allCases.count, "\(documented)")
        for apple in RefundPreference.allCases {
            #expect(documented[apple.rawValue] == GooglePreference(apple).rawValue, "\(apple)")
        }
        // Every one of Google's three is reached.
        #expect(Set(RefundPreference.allCases.map { GooglePreference($0) }) == Set(GooglePreference.allCases))
    }

    @Test func aDescriptionIsCutToGooglesFiveThousandUnitsNeverInsideACodePoint() {
        // 5,000 'e' + combining acute: 10,000 code points, each one UTF-16 unit.
        let accents = String(repeating: "e\u{301}", count: 5_000)
        #expect(PlayReviewFigure.description(accents).utf16.count == 5_000)
        // A family emoji is 7 code points, 11 UTF-16 units: 454 whole ones fit in 4,994 units,
        // and the 455th's first 6 units too (man, joiner, woman, joiner: 2 + 1 + 2 + 1).
        let families = String(repeating: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}", count: 600)
        let cut = PlayReviewFigure.description(families)
        #expect(cut.utf16.count <= 5_000)
        #expect(cut.utf16.count == 454 * 11 + 6, "\(cut.utf16.count)")
        #expect(cut.unicodeScalars.allSatisfy { $0.value != 0xFFFD })
        #expect(PlayReviewFigure.description("compute") == "compute")
    }
}
