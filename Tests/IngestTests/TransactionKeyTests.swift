import Testing

@testable import Ingest
@testable import Support

@Suite("Transaction keys")
struct TransactionKeyTests {
    @Test func idsAreEqualExactlyWhenTheirTextIs() {
        let ids = [
            "2000000123456789", "2000000123456788", "7", "07", "0", "00", "9999999999999999999", "09999999999999999999",
            "18446744073709551615", "18446744073709551616", "abc", "12a", "", "-1", "１２",
        ]
        for a in ids {
            for b in ids {
                #expect((TransactionKey(a) == TransactionKey(b)) == (a == b), "\(a) against \(b)")
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

@Suite("Notification keys")
struct NotificationKeyTests {
    @Test func uuidsAreEqualExactlyWhenTheirTextIs() {
        let uuids = [
            "002e14d5-51f5-4503-b5a8-c3a1af68eb20", "002e14d5-51f5-4503-b5a8-c3a1af68eb21",
            "002E14D5-51F5-4503-B5A8-C3A1AF68EB20",
            "002e14d551f54503b5a8c3a1af68eb20", "002e14d5-51f5-4503-b5a8-c3a1af68eb2", "002e14d5-51f5-4503-b5a8-c3a1af68eb20 ",
            "002e14d5_51f5-4503-b5a8-c3a1af68eb20", "00000000-0000-0000-0000-000000000000", "retry-1", "",
        ]
        for a in uuids {
            for b in uuids {
                #expect((NotificationKey(a) == NotificationKey(b)) == (a == b), "\(a) against \(b)")
            }
        }
    }
}
