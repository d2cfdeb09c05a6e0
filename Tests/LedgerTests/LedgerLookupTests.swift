import Testing

@testable import Ingest
@testable import Ledger
@testable import Support
@testable import TestSupport

/// `Ledger.index(of:)` searches the transactions in their id order: every id the ledger holds is
/// found at its own place, numbers, text and leading zeros alike, and no other id is.
@Suite("Ledger lookup by transaction id")
struct LedgerLookupTests {
    typealias F = AppStoreFixture

    @Test func everyIdIsFoundAtItsPlaceAndNoOther() throws {
        let held = ["7", "07", "10", "9", "2000000700000010", "2000000700000009", "GPA.3312-1", "abc", "0"]
        var fixture = F()
        for (number, id) in held.enumerated() {
            let at = F.october + Int64(number) * F.hour
            fixture.notify(
                "ONE_TIME_CHARGE", uuid: "n-\(number)", signed: at,
                transaction: F.transaction(id, product: "credits.500", type: "Consumable", purchase: at, signed: at))
        }
        let ledger = try buildLedger(try fixture.write()).ledger
        #expect(ledger.transactions.count == held.count)
        for id in held {
            let index = try #require(ledger.index(of: id), "\(id) is held")
            #expect(ledger.transactions[index].id == id)
        }
        // The order searched: numbers by value ("07" after "7", its tie, by bytes), then text.
        #expect(
            ledger.transactions.map(\.id) == [
                "0", "07", "7", "9", "10", "2000000700000009", "2000000700000010", "GPA.3312-1", "abc",
            ])
        for absent in ["8", "007", "00", "ab", "abcd", "", "2000000700000011", "99999999999999999999"] {
            #expect(ledger.index(of: absent) == nil, "\(absent) is not held")
        }
    }
}
