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

    /// The raw texts Apple documents a few values of are kept in a byte; any other value, a
    /// currency that is not three capital letters among them, reads back byte for byte, and
    /// codes as before.
    @Test(arguments: [
        ("Consumable", "FAMILY_REVOKE", "Sandbox", "FAMILY_SHARED", "EUR"),
        ("Subscription Bundle", "REFUND_PARTIAL", "Staging", "GIFTED", "usd"),
        ("", "", "", "", ""),
        ("Consumable\u{212A}", "REFUND_FULL ", "production", "PURCHASED\u{0}", "EURO"),
        ("Non-Consumable", "REFUND_PRORATED", "LocalTesting", "PURCHASED", "\u{212A}RW"),
    ])
    func rawTextsReadBackAsTheyCame(type: String, revocation: String, environment: String, ownership: String, currency: String)
        throws
    {
        var copy = record(expires: nil, revoked: nil, reason: nil, percentage: nil, price: 100, ownership: ownership)
        copy.rawType = type
        copy.rawRevocationType = revocation
        copy.rawEnvironment = environment
        copy.currency = currency
        for read in [copy, try CompactCoder.decode(TransactionRecord.self, from: try CompactCoder.encode(copy))] {
            #expect(Array(read.rawType?.utf8 ?? "".utf8) == Array(type.utf8))
            #expect(Array(read.rawRevocationType?.utf8 ?? "".utf8) == Array(revocation.utf8))
            #expect(Array(read.rawEnvironment?.utf8 ?? "".utf8) == Array(environment.utf8))
            #expect(Array(read.rawOwnership?.utf8 ?? "".utf8) == Array(ownership.utf8))
            #expect(Array(read.currency?.utf8 ?? "".utf8) == Array(currency.utf8))
            #expect(read == copy)
        }
        // Set back to nothing, or to a value Apple documents, each field forgets what it held.
        copy.rawType = nil
        copy.rawRevocationType = "REFUND_FULL"
        copy.rawEnvironment = nil
        copy.rawOwnership = "PURCHASED"
        copy.currency = nil
        #expect(copy.rawType == nil && copy.rawRevocationType == "REFUND_FULL" && copy.rawEnvironment == nil)
        #expect(copy.ownership == .purchased && copy.currency == nil)
        let plain = TransactionRecord(
            transactionID: copy.transactionID, originalTransactionID: copy.originalTransactionID, productID: copy.productID,
            purchaseDate: copy.purchaseDate, expiresDate: nil, quantity: copy.quantity, rawType: nil, appAccountToken: nil,
            rawOwnership: "PURCHASED", signedDate: copy.signedDate, revocationDate: nil, rawRevocationReason: nil,
            rawRevocationType: "REFUND_FULL", revocationPercentage: nil, isUpgraded: true, rawEnvironment: nil, price: 100,
            currency: nil, source: copy.source, sampledFirst: true)
        #expect(copy == plain && copy.hashValue == plain.hashValue)
    }

    /// The ledger holds a record for every transaction for the whole run: the record stays
    /// within 168 bytes, so that with its box's 16-byte header and the allocator's 8 it takes a
    /// block of 192 bytes, not 256.
    @Test func aRecordStaysWithinItsBlock() {
        #expect(MemoryLayout<TransactionRecord>.size <= 168)
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

    /// A renewal's original id and its subscription's first transaction's ids are one string
    /// when they are text (Apple's ids of digits are packed, with no memory to share).
    ///
    /// The renewal is kept before the first transaction: the sharing does not depend on the
    /// order. A one-time purchase's id is not put in the table.
    @Test func aSubscriptionsRenewalsShareTheStringOfItsFirstTransaction() {
        // Each id made from its own bytes, so that no two share a buffer before they are kept.
        func text(_ literal: String) -> String { String(decoding: Array(literal.utf8), as: UTF8.self) }
        func buffer(_ text: String) -> UnsafeRawPointer? {
            var text = text
            return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
        }
        var first = record(expires: nil, revoked: nil, reason: nil, percentage: nil, price: 100, ownership: nil)
        first.transactionID = text("sub-2000000123456780")
        first.originalTransactionID = text("sub-2000000123456780")
        var renewal = first
        renewal.transactionID = text("sub-2000000123456789")
        renewal.originalTransactionID = text("sub-2000000123456780")
        var oneTime = first
        oneTime.rawType = "Consumable"
        oneTime.transactionID = text("one-2000000123456799")
        oneTime.originalTransactionID = oneTime.transactionID
        #expect(buffer(renewal.originalTransactionID) != buffer(first.transactionID))

        var strings = StringInterner()
        let keptRenewal = renewal.interned(&strings)
        let keptFirst = first.interned(&strings)
        let keptOneTime = oneTime.interned(&strings)
        #expect(keptRenewal == renewal && keptFirst == first && keptOneTime == oneTime)
        #expect(buffer(keptFirst.transactionID) == buffer(keptRenewal.originalTransactionID))
        #expect(buffer(keptFirst.originalTransactionID) == buffer(keptRenewal.originalTransactionID))
        #expect(buffer(keptRenewal.transactionID) != buffer(keptRenewal.originalTransactionID))
        // The one-time purchase's id went through untouched, and is not in the table.
        #expect(buffer(keptOneTime.transactionID) == buffer(oneTime.transactionID))
        #expect(buffer(strings(text("one-2000000123456799"))) != buffer(keptOneTime.transactionID))
    }

    /// Apple's 16-digit ids are kept packed in the record, inside the field (`PackedID`), and
    /// read back as their text.
    @Test func idsOfDigitsArePackedInTheRecord() {
        var record = record(expires: nil, revoked: nil, reason: nil, percentage: nil, price: 100, ownership: nil)
        record.transactionID = "2000000123456789"
        record.originalTransactionID = "0000000000000000"
        #expect(Array(record.packedTransactionID.form.utf8) == [0, 21, 1, 1, 2, 24, 46, 68, 90])
        #expect(record.packedOriginalTransactionID.form.utf8.count == 9)
        #expect(record.transactionID == "2000000123456789" && record.originalTransactionID == "0000000000000000")
        let notified = NotifiedTransaction(record)
        #expect(notified.transactionID == "2000000123456789")
    }

    /// A notification's transaction as it was coded when its id was a `String`: the same keys in
    /// the same order.
    private struct NotifiedAsText: Codable {
        var transactionID: String
        var productID: String
        var revocationDate: Timestamp?
        var rawOwnership: String?
    }

    /// A notification's transaction, its id packed, codes to the bytes it did when the id was
    /// text, and reads back equal.
    @Test func aNotifiedTransactionCodesAsWhenItsIdWasText() throws {
        for (id, revoked, ownership) in [
            ("2000000123456789", Timestamp?.none, String?.none), ("tx-7", Timestamp(milliseconds: 0), "FAMILY_SHARED"),
        ] {
            var copy = record(expires: nil, revoked: revoked, reason: nil, percentage: nil, price: 100, ownership: ownership)
            copy.transactionID = id
            let notified = NotifiedTransaction(copy)
            let asText = NotifiedAsText(
                transactionID: id, productID: "pro.monthly", revocationDate: revoked, rawOwnership: ownership)
            let coded = try CompactCoder.encode(notified)
            #expect(coded == (try CompactCoder.encode(asText)))
            #expect(try CompactCoder.decode(NotifiedTransaction.self, from: coded) == notified)
        }
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
