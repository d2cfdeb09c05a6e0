import Ingest
import Ledger
import Support

/// Dense indices for product ids: 0 is the empty product (unentitled and unlinked rows), the
/// rest follow the sorted product ids of the ledger, so every worker agrees on them.
package struct ProductIndex: Sendable {
    package let names: [String]
    /// Per transaction index, its product's index.
    let ofTransaction: [Int32]

    package init(ledger: Ledger) {
        // Fields read in place: a key path through the record would copy it whole.
        let products = ledger.withTransactions { transactions in transactions.map(\.box.record.productID) }
        names = [""] + Set(products).sorted { $0.bytesPrecede($1) }
        let index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, Int32($0)) })
        ofTransaction = products.map { index[$0] ?? 0 }
    }

    /// The product of a transaction; the empty product (index 0) for none.
    package func of(transaction: Int?) -> Int { transaction.map { Int(ofTransaction[$0]) } ?? 0 }
}
