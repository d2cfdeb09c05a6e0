import Testing

@testable import Ingest
@testable import Support

/// A torn journal line gives the members written whole before its cut, and never a value cut
/// in two: every prefix of a real line is tried.
@Suite("The journal's torn last line")
struct TornJournalLineTests {
    static let event = JournalEvent(
        notificationUUID: "6BAB9FA1-0000-4000-8000-000000000001", transactionID: "2000000700001218", state: .sent,
        at: Timestamp(milliseconds: 1_791_200_702_402), asOf: Timestamp(milliseconds: 1_791_200_700_000), httpStatus: 202,
        body: "{\"customerConsented\":true,\"refundPreference\":\"DECLINE\"}", attempt: 12)

    func torn(_ text: Substring) -> TornJournalLine {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { JournalLine.torn(UnsafeRawBufferPointer($0)) }
    }

    @Test func everyPrefixGivesOnlyWholeMembers() {
        let line = Self.event.line.dropLast()
        for cut in 0..<line.count {
            let prefix = line.prefix(cut)
            let read = torn(prefix)
            // A member is there once the next member's key is whole: never a value cut in two.
            func whole(_ next: String) -> Bool { prefix.contains("\"\(next)\":") }
            #expect(read.notificationUUID == (whole("transactionId") ? Self.event.notificationUUID : nil), "\(prefix)")
            #expect(read.transactionID == (whole("state") ? Self.event.transactionID : nil), "\(prefix)")
            #expect(read.state == (whole("at") ? "sent" : nil), "\(prefix)")
            #expect(read.at == (whole("as_of") ? Self.event.at : nil), "\(prefix)")
            #expect(read.asOf == (whole("http_status") ? Self.event.asOf : nil), "\(prefix)")
            #expect(read.httpStatus == (whole("attempt") ? 202 : nil), "\(prefix)")
            #expect(read.attempt == (whole("body") ? 12 : nil), "\(prefix)")
        }
    }

    @Test func bytesThatAreNoLineGiveNothing() {
        for text in ["", "garbage", "[1,2", "{\"state\"", "{\"state\":1,\"at\":"] {
            #expect(torn(Substring(text)) == TornJournalLine(), "\(text)")
        }
    }
}
