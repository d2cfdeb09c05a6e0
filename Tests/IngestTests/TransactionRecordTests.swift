import Testing

@testable import Ingest
@testable import Support

/// The record's compact layout must read back every field as it was given.
@Suite("Transaction records")
struct TransactionRecordTests {
    func record(
        expires: Timestamp?, revoked: Timestamp?, reason: Int?, percentage: Int?, price: Int64?, ownership: String?
    ) -> TransactionRecord {
        TransactionRecord(
            transactionID: "2000000123456789", originalTransactionID: "2000000123456780", productID: "pro.monthly",
            purchaseDate: Timestamp(milliseconds: 1_790_812_800_000), expiresDate: expires, quantity: 3,
            rawType: "Auto-Renewable Subscription", appAccountToken: nil, rawOwnership: ownership,
            signedDate: Timestamp(milliseconds: 1_790_812_900_000), revocationDate: revoked, rawRevocationReason: reason,
            rawRevocationType: nil, revocationPercentage: percentage, isUpgraded: true, rawEnvironment: "Production",
            price: price, currency: "USD", source: SourceLocation(file: "t.jsonl", line: 7), sampledFirst: true)
    }

    @Test func absentFieldsReadAsAbsentAndPresentOnesAsGiven() throws {
        let empty = record(expires: nil, revoked: nil, reason: nil, percentage: nil, price: nil, ownership: nil)
        #expect(empty.expiresDate == nil && empty.revocationDate == nil && empty.price == nil)
        #expect(empty.rawRevocationReason == nil && empty.revocationPercentage == nil && empty.ownership == nil)
        let full = record(
            expires: Timestamp(milliseconds: 1_793_491_200_000), revoked: Timestamp(milliseconds: 0), reason: 1,
            percentage: 100_000, price: -9990, ownership: "FAMILY_SHARED")
        #expect(full.expiresDate == Timestamp(milliseconds: 1_793_491_200_000))
        // The epoch is a time like any other, not "none".
        #expect(full.revocationDate == Timestamp(milliseconds: 0))
        #expect(full.rawRevocationReason == 1 && full.revocationReason == .appIssue)
        #expect(full.revocationPercentage == 100_000 && full.price == -9990)
        #expect(full.ownership == .familyShared && full.rawOwnership == "FAMILY_SHARED")
        #expect(full.quantity == 3 && full.isUpgraded && full.sampledFirst)
        for original in [empty, full] {
            let coded = try CompactCoder.encode(original)
            #expect(try CompactCoder.decode(TransactionRecord.self, from: coded) == original)
        }
    }

    /// Once every file is read the input lets go of its index by id; a copy kept after that
    /// (Google Play's orders, a test's loose items) still finds its transaction.
    @Test func aCopyKeptAfterTheReadingStillFindsItsTransaction() {
        var input = AppStoreInput()
        var first = record(expires: nil, revoked: nil, reason: nil, percentage: nil, price: 100, ownership: nil)
        var other = first
        other.transactionID = "2000000123456790"
        input.keep(first)
        input.keep(other)
        input.finishKeeping()
        first.signedDate = Timestamp(milliseconds: 1_790_813_000_000)
        first.quantity = 5
        input.keep(first)
        #expect(input.transactions.count == 2)
        #expect(input.copyCounts == [2, 1])
        #expect(input.transactions[0].record.quantity == 5)
        #expect(input.transactions[1].record.transactionID == "2000000123456790")
    }

    @Test func valuesAtTheEdgesStayWhatTheyMean() {
        var edge = record(
            expires: Timestamp(milliseconds: .min), revoked: nil, reason: Int(Int32.max) + 1, percentage: nil, price: 0,
            ownership: "SOMEONE_ELSE")
        // A time no decoding accepts is kept, a millisecond later, rather than read as none.
        #expect(edge.expiresDate == Timestamp(milliseconds: .min + 1))
        // A reason too large to keep is no reason Apple defines, as it was before.
        #expect(edge.rawRevocationReason != nil && edge.revocationReason == nil)
        #expect(edge.price == 0 && edge.ownership == nil)
        edge.price = nil
        edge.expiresDate = nil
        #expect(edge.price == nil && edge.expiresDate == nil)
    }
}
