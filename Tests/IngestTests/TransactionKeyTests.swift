import Testing

@testable import Ingest
@testable import Support

@Suite("Transaction keys")
struct TransactionKeyTests {
    @Test func idsAreEqualExactlyWhenTheirTextIs() {
        let ids = [
            "2000000123456789", "2000000123456788", "7", "07", "0", "00", "9999999999999999999", "09999999999999999999",
            "18446744073709551615", "18446744073709551616", "abc", "12a", "", "-1", "１２", "tx-\u{E9}", "tx-e\u{301}",
        ]
        for a in ids {
            for b in ids {
                // By bytes: the two forms of "tx-é" are two ids.
                #expect((TransactionKey(a) == TransactionKey(b)) == a.bytesEqual(b), "\(a) against \(b)")
                #expect((TransactionKey(a) < TransactionKey(b) || TransactionKey(b) < TransactionKey(a)) == !a.bytesEqual(b))
            }
        }
    }

    @Test func aDictionaryFindsEveryKindOfId() {
        var positions: [TransactionKey: Int] = [:]
        let ids = ["2000000123456789", "07", "7", "order-42", "0"]
        for (position, id) in ids.enumerated() { positions[TransactionKey(id)] = position }
        #expect(positions.count == ids.count)
        for (position, id) in ids.enumerated() { #expect(positions[TransactionKey(id)] == position) }
        #expect(positions[TransactionKey("8")] == nil)
    }
}

@Suite("Place tables")
struct PlaceTableTests {
    /// Each id claims its own place, however close its text to another's; claimed again, it
    /// finds the place it was first given.
    func eachIdHasItsOwnPlace<Key: CompactKey>(_ ids: [String], _ key: Key.Type) {
        var table = PlaceTable<Key>()
        for (place, id) in ids.enumerated() { #expect(table.claim(id, place: place) == nil, "\(id) claimed as new") }
        #expect(table.count == ids.count)
        for (place, id) in ids.enumerated() { #expect(table.claim(id, place: 999) == place, "\(id) found at \(place)") }
        #expect(table.count == ids.count)
    }

    @Test func transactionIdsAreTheSameExactlyWhenTheirTextIs() {
        eachIdHasItsOwnPlace(
            [
                "2000000123456789", "2000000123456788", "7", "07", "0", "00", "9999999999999999999", "09999999999999999999",
                "18446744073709551615", "18446744073709551616", "abc", "12a", "", "-1", "１２", "order-42", "tx-\u{E9}",
                "tx-e\u{301}",
            ], TransactionKey.self)
    }

    @Test func notificationUUIDsAreTheSameExactlyWhenTheirTextIs() {
        eachIdHasItsOwnPlace(
            [
                "002e14d5-51f5-4503-b5a8-c3a1af68eb20", "002e14d5-51f5-4503-b5a8-c3a1af68eb21",
                "002E14D5-51F5-4503-B5A8-C3A1AF68EB20", "002e14d551f54503b5a8c3a1af68eb20",
                "002e14d5-51f5-4503-b5a8-c3a1af68eb2", "002e14d5-51f5-4503-b5a8-c3a1af68eb20 ",
                "002e14d5_51f5-4503-b5a8-c3a1af68eb20", "00000000-0000-0000-0000-000000000000", "retry-1", "",
                "n-\u{E9}", "n-e\u{301}", "002E14D5-51F5-4503-B5A8-C3A1AF68EB21", "002E14D5-51f5-4503-b5a8-c3a1af68eb20",
                "002e14d5-51F5-4503-B5A8-C3A1AF68EB20", "002G14D5-51F5-4503-B5A8-C3A1AF68EB20",
                "002g14d5-51f5-4503-b5a8-c3a1af68eb20", "12345678-1234-1234-1234-123456789012",
            ], NotificationKey.self)
    }

    /// A UUID in lowercase or in uppercase is kept as its bits, the uppercase one in a table of
    /// its own; one without letters has the lowercase form (the table looks no further); mixed
    /// case has neither.
    @Test func uuidsInEitherCaseHaveACompactForm() {
        let lower = "002e14d5-51f5-4503-b5a8-c3a1af68eb20"
        let upper = "002E14D5-51F5-4503-B5A8-C3A1AF68EB20"
        let bits: UInt128 = 0x002e_14d5_51f5_4503_b5a8_c3a1_af68_eb20
        #expect(NotificationKey.compact(lower) == bits)
        #expect(NotificationKey.otherCompact(lower) == nil)
        #expect(NotificationKey.compact(upper) == nil)
        #expect(NotificationKey.otherCompact(upper) == bits)
        #expect(NotificationKey.compact("12345678-1234-1234-1234-123456789012") == 0x1234_5678_1234_1234_1234_1234_5678_9012)
        for mixed in ["002E14D5-51f5-4503-b5a8-c3a1af68eb20", "002e14d5-51F5-4503-B5A8-C3A1AF68EB20"] {
            #expect(NotificationKey.compact(mixed) == nil && NotificationKey.otherCompact(mixed) == nil, "\(mixed)")
        }
    }

    /// A place of -1 (a notification left out) is a place like any other: the id claimed again
    /// finds it, and is not new.
    @Test func aPlaceOfMinusOneIsFound() {
        var table = PlaceTable<NotificationKey>()
        #expect(table.claim("002e14d5-51f5-4503-b5a8-c3a1af68eb20", place: -1) == nil)
        #expect(table.claim("002e14d5-51f5-4503-b5a8-c3a1af68eb20", place: -1) == -1)
        #expect(table.claim("002e14d5-51f5-4503-b5a8-c3a1af68eb20", place: 3) == -1)
        #expect(table.claim("retry", place: -1) == nil)
        #expect(table.claim("retry", place: 0) == -1)
    }
}
