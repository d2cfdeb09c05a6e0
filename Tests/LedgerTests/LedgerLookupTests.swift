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

/// The ledger's accounts are found by name in their byte order, and each account's
/// transactions are listed by when they started.
@Suite("Ledger lookup by account")
struct LedgerAccountLookupTests {
    typealias F = AppStoreFixture

    /// Five accounts, found in the order of their bytes.
    ///
    /// "A-9" (capital letters first), "acct-1", "acct-10" (after "acct-1", which it begins
    /// with), "acct-2", "é" (two bytes, 0xC3 0xA9, after every ASCII letter). acct-10 holds 300 (day 3) and 100 (day 1), listed 100 first;
    /// acct-2 holds 200; the others one each.
    @Test func everyAccountIsFoundAtItsPlaceWithItsTransactionsByStart() throws {
        var fixture = F()
        for (id, account, day) in [
            ("300", "acct-10", 3), ("100", "acct-10", 1), ("200", "acct-2", 2), ("400", "A-9", 4), ("500", "acct-1", 5),
            ("600", "é", 6),
        ] {
            let at = F.october + Int64(day) * F.day
            fixture.notify(
                "ONE_TIME_CHARGE", uuid: "n-\(id)", signed: at,
                transaction: F.transaction(id, product: "credits.500", type: "Consumable", purchase: at, signed: at))
            fixture.link(account, id)
        }
        let ledger = try buildLedger(try fixture.write()).ledger
        #expect(ledger.accounts == ["A-9", "acct-1", "acct-10", "acct-2", "é"])
        for (place, name) in ledger.accounts.enumerated() {
            #expect(ledger.accountIndex(of: name) == place, "\(name)")
        }
        for missing in ["", "a", "acct-", "acct-0", "acct-11", "acct-3", "e", "ê", "zz"] {
            #expect(ledger.accountIndex(of: missing) == nil, "\(missing)")
        }
        let held = (0..<ledger.accounts.count).map { ledger.transactionsByAccount[$0].map { ledger.transactions[$0].id } }
        #expect(held == [["400"], ["500"], ["100", "300"], ["200"], ["600"]])
        #expect(ledger.transactionsByAccount.count == 5)
    }
}

/// A family member's link is found by the member's place; a transaction that is no member's
/// has none.
@Suite("Ledger lookup of a member's link")
struct LedgerFamilyLinkLookupTests {
    /// `familyRefund()`: purchase 100 (acct-p) shared with 201 (acct-m1) and 202 (acct-m2).
    @Test func eachMembersLinkIsFoundAndNoOther() throws {
        let ledger = try buildLedger(try AppStoreFixture.familyRefund().write()).ledger
        let purchase = try #require(ledger.index(of: "100"))
        for member in ["201", "202"] {
            let index = try #require(ledger.index(of: member))
            let link = try #require(ledger.familyLink(ofMember: index), "\(member) has a link")
            #expect(ledger.familyLinks[link].member == index)
            #expect(ledger.purchaser(ofMember: index) == purchase)
        }
        #expect(ledger.familyLink(ofMember: purchase) == nil)
        #expect(ledger.familyLink(ofMember: -1) == nil && ledger.familyLink(ofMember: ledger.transactions.count) == nil)
        #expect(ledger.familyLinks.count == 2)
    }
}
