import Testing

@testable import Ledger
@testable import TestSupport

@Suite("Transaction id order")
struct TransactionIDTests {
    /// One order everywhere: numbers by value, numbers before text, bytes on a tie.
    @Test(arguments: [
        ("2", "10"), ("01", "2"), ("01", "1"), ("999", "1000"), ("2000000700000001", "2000000700000010"), ("9", "abc"),
        ("abc", "abd"), ("99999999999999999999", "a"),
    ])
    func ordersNumericIdsByValue(lower: String, higher: String) {
        #expect(TransactionID.precedes(lower, higher))
        #expect(!TransactionID.precedes(higher, lower))
        #expect(TransactionID.sortKey(lower) < TransactionID.sortKey(higher))
    }
}
