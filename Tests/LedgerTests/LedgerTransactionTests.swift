import Testing

@testable import Ingest
@testable import Ledger
@testable import Support
@testable import TestSupport

/// A ledger transaction keeps its account and its copy count in four bytes each: what goes in
/// comes out, none as none, and the whole transaction takes 88 bytes.
@Suite("Ledger transaction")
struct LedgerTransactionTests {
    typealias F = AppStoreFixture

    @Test func aTransactionTakesEightyEightBytes() {
        #expect(MemoryLayout<LedgerTransaction>.stride == 88)
    }

    /// Three purchases: "1" read three times and held by acct-b, "2" once and held by acct-a,
    /// "3" once and held by no account.
    ///
    /// The ledger's accounts are in byte order: acct-a is 0, acct-b is 1.
    @Test func accountsAndCopiesComeBackAsTheyWent() throws {
        var fixture = F()
        for (number, id) in ["1", "1", "1", "2", "3"].enumerated() {
            let at = F.october + Int64(number) * F.hour
            fixture.notify(
                "ONE_TIME_CHARGE", uuid: "n-\(number)", signed: at,
                transaction: F.transaction(id, product: "credits.500", type: "Consumable", purchase: F.october, signed: at))
        }
        fixture.link("acct-b", "1")
        fixture.link("acct-a", "2")
        let ledger = try buildLedger(try fixture.write()).ledger
        #expect(ledger.transactions.map(\.id) == ["1", "2", "3"])
        #expect(ledger.transactions.map(\.account) == [1, 0, nil])
        #expect(ledger.transactions.map(\.copies) == [3, 1, 1])

        var moved = ledger.transactions[2]
        moved.account = 0
        moved.copies = 7
        #expect(moved.account == 0 && moved.copies == 7)
        moved.account = nil
        moved.copies = 1
        #expect(moved.account == nil)
        #expect(moved == ledger.transactions[2])
    }
}
