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

    /// Ids are told apart by their bytes (docs/inputs.md, "Identifiers"): two transactions whose
    /// ids are one text in two Unicode forms are two transactions, each in its account, and two
    /// notifications whose ids are are two notifications, neither a retry of the other.
    @Test func idsInTwoUnicodeFormsAreTwoTransactions() throws {
        let composed = "tx-\u{E9}"
        let decomposed = "tx-e\u{301}"
        var fixture = F()
        for (number, id) in [composed, decomposed].enumerated() {
            let at = F.october + Int64(number) * F.hour
            fixture.notify(
                "ONE_TIME_CHARGE", uuid: number == 0 ? "n-\u{E9}" : "n-e\u{301}", signed: at,
                transaction: F.transaction(id, product: "credits.500", type: "Consumable", purchase: at, signed: at))
        }
        fixture.link("acct-1", composed)
        fixture.link("acct-2", decomposed)
        let built = try buildLedger(try fixture.write())
        #expect(built.load.input.counts.duplicateNotifications == 0)
        let ledger = built.ledger
        #expect(ledger.transactions.count == 2)
        #expect(ledger.transaction(composed).map { Array($0.id.utf8) } == Array(composed.utf8))
        #expect(ledger.transaction(decomposed).map { Array($0.id.utf8) } == Array(decomposed.utf8))
        #expect(ledger.transaction(composed)?.account == ledger.accountIndex(of: "acct-1"))
        #expect(ledger.transaction(decomposed)?.account == ledger.accountIndex(of: "acct-2"))
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

/// Who holds each transaction, found in accounts.csv's rows by original transaction id, then
/// by `appAccountToken` (a declared token, or an account id itself).
@Suite("Ledger lookup of a transaction's holder")
struct LedgerHolderLookupTests {
    typealias F = AppStoreFixture

    /// accounts.csv, in this order: acct-a holds 100 with token tok-a; acct-b holds "07" (text:
    /// not the number 7); acct-c holds 7 with token tok-c; acct-b declares tok-b; acct-a
    /// declares tok-a again; acct-e holds "abc"; acct-f holds 999, which Apple never sent.
    ///
    /// Worked out by hand: 100 → acct-a (listed); 07 → acct-b (listed, not acct-c's 7); 7 with
    /// tok-c → acct-c; 200 with tok-b → acct-b (its token); 210 with token acct-e → acct-e (an
    /// account id); 220 with tok-z → no one, one token matched nothing; abc with tok-a → acct-e,
    /// which lists it, and a conflict naming acct-a; 240 → no one. acct-f holds nothing.
    @Test func eachTransactionIsHeldByTheAccountItsRowOrTokenNames() throws {
        var fixture = F()
        for (number, (id, token)) in [
            ("100", nil), ("07", nil), ("7", "tok-c"), ("200", "tok-b"), ("210", "acct-e"), ("220", "tok-z"),
            ("abc", "tok-a"), ("240", nil),
        ].enumerated() {
            let at = F.october + Int64(number) * F.hour
            fixture.notify(
                "ONE_TIME_CHARGE", uuid: "n-\(number)", signed: at,
                transaction: F.transaction(
                    id, product: "credits.500", type: "Consumable", purchase: at, signed: at,
                    extra: token.map { ["appAccountToken": $0] } ?? [:]))
        }
        fixture.link("acct-a", "100", token: "tok-a")
        fixture.link("acct-b", "07")
        fixture.link("acct-c", "7", token: "tok-c")
        fixture.link("acct-b", "", token: "tok-b")
        fixture.link("acct-a", "", token: "tok-a")
        fixture.link("acct-e", "abc")
        fixture.link("acct-f", "999")
        let (ledger, _, rejects) = try buildLedger(try fixture.write())
        #expect(ledger.accounts == ["acct-a", "acct-b", "acct-c", "acct-e"])
        func holder(_ id: String) -> String? { ledger.transaction(id)?.account.map { ledger.accounts[$0] } }
        let expected: [(String, String?)] = [
            ("100", "acct-a"), ("07", "acct-b"), ("7", "acct-c"), ("200", "acct-b"), ("210", "acct-e"), ("220", nil),
            ("abc", "acct-e"), ("240", nil),
        ]
        for (id, account) in expected {
            #expect(ledger.transaction(id) != nil, "\(id) is held")
            #expect(holder(id) == account, "\(id)")
        }
        #expect(ledger.unmatchedAppAccountTokens == 1)
        #expect(ledger.accountsWithoutTransactions == ["acct-f"])
        #expect(ledger.linkConflicts.count == 1)
        let conflict = try #require(ledger.linkConflicts.first)
        #expect(conflict.field == "appAccountToken" && conflict.value == "tok-a")
        #expect(conflict.reason.contains("transaction abc is held by account acct-e"))
        #expect(conflict.reason.contains("points to acct-a"))
        #expect(rejects.firstRejects.map(\.reason) == [conflict.reason])
    }

    /// Two account names that are one text in two Unicode forms are two accounts.
    ///
    /// "acct-é" as one scalar (bytes C3 A9) holds 100, and as "e" and a combining accent (65 CC
    /// 81) holds 200. Account ids are compared by their bytes, as cost rows find their account:
    /// two accounts, the second spelling first (65 before C3), each holding its own transaction.
    @Test func namesInTwoUnicodeFormsAreTwoAccounts() throws {
        let composed = "acct-\u{E9}"
        let decomposed = "acct-e\u{301}"
        var fixture = F()
        for (number, id) in ["100", "200"].enumerated() {
            let at = F.october + Int64(number) * F.hour
            fixture.notify(
                "ONE_TIME_CHARGE", uuid: "n-\(id)", signed: at,
                transaction: F.transaction(id, product: "credits.500", type: "Consumable", purchase: at, signed: at))
        }
        fixture.link(composed, "100")
        fixture.link(decomposed, "200")
        let ledger = try buildLedger(try fixture.write()).ledger
        #expect(ledger.accounts.map { Array($0.utf8) } == [Array(decomposed.utf8), Array(composed.utf8)])
        #expect(ledger.transaction("100")?.account == 1)
        #expect(ledger.transaction("200")?.account == 0)
        #expect(ledger.accountIndex(of: composed) == 1 && ledger.accountIndex(of: decomposed) == 0)
        #expect(ledger.accountsWithoutTransactions.isEmpty)
    }

    /// A ledger of a consumable bought for each of `purchases` at October 1 plus an hour each,
    /// then `decisions` (type, transaction id) on October 2 plus an hour each, in that order;
    /// returns what it finds for an id: each decision's hour and whether it declined.
    func refundDecisions(purchases: [String], decisions: [(String, String)]) throws -> (String) -> [String] {
        var fixture = F()
        for (number, id) in purchases.enumerated() {
            let at = F.october + Int64(number) * F.hour
            fixture.notify(
                "ONE_TIME_CHARGE", uuid: "buy-\(number)", signed: at,
                transaction: F.transaction(id, product: "credits.500", type: "Consumable", purchase: at, signed: at))
        }
        for (number, (type, id)) in decisions.enumerated() {
            let at = F.october + F.day + Int64(number) * F.hour
            fixture.notify(
                type, uuid: "decision-\(number)", signed: at,
                transaction: F.transaction(id, product: "credits.500", type: "Consumable", purchase: F.october, signed: at))
        }
        let ledger = try buildLedger(try fixture.write()).ledger
        return { id in
            ledger.refundDecisions(of: PackedID(id)).map {
                "\(($0.signedDate.milliseconds - F.october - F.day) / F.hour) \($0.declined ? "declined" : "granted")"
            }
        }
    }

    /// A transaction's refund decisions are found by its id's bytes, in the order they came;
    /// ids not decided on find none.
    @Test func refundDecisionsAreFoundByTheirTransactionInTheirOrder() throws {
        let (composed, decomposed) = ("tx-\u{E9}", "tx-e\u{301}")
        // In this order: 10 declined, 9 refunded, 10 refunded, é (composed) refunded, 10 revoked.
        let decisions = try refundDecisions(
            purchases: ["10", "9", composed, decomposed],
            decisions: [
                ("REFUND_DECLINED", "10"), ("REFUND", "9"), ("REFUND", "10"), ("REFUND", composed), ("REVOKE", "10"),
            ])
        #expect(decisions("10") == ["0 declined", "2 granted", "4 granted"])
        #expect(decisions("9") == ["1 granted"])
        #expect(decisions(composed) == ["3 granted"])
        for none in [decomposed, "1", "100", "09", ""] { #expect(decisions(none).isEmpty, "\(none)") }
    }

    /// Apple's ids (16 digits and more, which the records keep packed) are found the same way,
    /// beside short ids in the same ledger: an id with a leading zero, one digit less or one more
    /// is another transaction's.
    @Test func refundDecisionsOfAppleLengthIdsAreFoundByTheirId() throws {
        let (decided, undecided, long) = ("2000000000000010", "0200000000000010", "1234567890123456789012345678")
        // In this order: the 16 digits declined, the 28 digits refunded, 10 refunded, the 16
        // digits refunded, 9 revoked.
        let decisions = try refundDecisions(
            purchases: [decided, undecided, long, "9", "10"],
            decisions: [
                ("REFUND_DECLINED", decided), ("REFUND", long), ("REFUND", "10"), ("REFUND", decided), ("REVOKE", "9"),
            ])
        #expect(decisions(decided) == ["0 declined", "3 granted"])
        #expect(decisions(long) == ["1 granted"])
        #expect(decisions("10") == ["2 granted"])
        #expect(decisions("9") == ["4 granted"])
        for none in [undecided, "200000000000001", "20000000000000100", "2000000000000011", "1", "010", ""] {
            #expect(decisions(none).isEmpty, "\(none)")
        }
    }
}
