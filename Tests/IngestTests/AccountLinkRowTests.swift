import Foundation
import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

/// accounts.csv's rows keep an original transaction id of digits packed (`PackedID`), and read
/// and code exactly as when it was held as text.
@Suite("accounts.csv rows")
struct AccountLinkRowTests {
    /// The row as it was coded when the id was a `String`: the same keys in the same order.
    private struct RowAsText: Codable {
        var accountID: String
        var originalTransactionID: String
        var appAccountToken: String?
        var source: Ingest.SourceLocation
    }

    @Test(arguments: ["2000000700000035", "", "0000000000000000", "1234567890123456789012345678", "sub-7", "123"])
    func anIdReadsBackAndCodesAsText(id: String) throws {
        let source = Ingest.SourceLocation(file: "accounts.csv", line: 4)
        for token in [nil, "044C3CD7-F43C-661C-E698-4080BAB12A02"] {
            let row = AccountLinkRow(accountID: "acct-000001", originalTransactionID: id, appAccountToken: token, source: source)
            #expect(row.originalTransactionID.utf8.elementsEqual(id.utf8))
            let asText = RowAsText(accountID: "acct-000001", originalTransactionID: id, appAccountToken: token, source: source)
            let coded = try CompactCoder.encode(row)
            #expect(coded == (try CompactCoder.encode(asText)))
            #expect(try CompactCoder.decode(AccountLinkRow.self, from: coded) == row)
        }
    }

    /// Read from a file, a 16-digit id is held in the row itself (no block of its own), and two
    /// rows are equal exactly when their fields are.
    @Test func rowsReadFromAFileHoldTheirIds() throws {
        let folder = try TestFiles.temporaryDirectory("account-links")
        let path = folder + "/accounts.csv"
        try Data(
            "account_id,original_transaction_id,app_account_token\nacct-1,2000000700000035,\nacct-2,,tok-2\nacct-3,2000000700000036,tok-3\n"
                .utf8
        ).write(to: URL(fileURLWithPath: path))
        let rows = try AccountLinkReader.read(path: path, rejects: RejectLog())
        #expect(rows.map(\.originalTransactionID) == ["2000000700000035", "", "2000000700000036"])
        #expect(rows.map(\.appAccountToken) == [nil, "tok-2", "tok-3"])
        #expect(rows.map(\.source.line) == [2, 3, 4])
        var changed = rows[0]
        changed.originalTransactionID = "2000000700000036"
        #expect(changed != rows[0])
        changed.originalTransactionID = "2000000700000035"
        #expect(changed == rows[0])
    }
}
