import Ingest
import Ledger
import Support

/// A product as the figures count it: its id in its store, since the two stores may sell a
/// product under the same id; the empty product (unentitled and unlinked rows) has no store.
package struct ProductKey: Sendable, Hashable, Codable {
    package var id: String
    package var store: Store?

    package init(id: String, store: Store?) {
        self.id = id
        self.store = store
    }

    /// The empty product: rows tied to no transaction.
    package static let none = ProductKey(id: "", store: nil)

    /// By id, then the App Store before Google Play; the empty product first.
    package func precedes(_ other: ProductKey) -> Bool {
        if id != other.id { return id.bytesPrecede(other.id) }
        switch (store, other.store) {
        case (nil, .some): return true
        case (.some(let left), .some(let right)): return left < right
        default: return false
        }
    }
}

/// Dense indices for products: 0 is the empty product (unentitled and unlinked rows), the
/// rest follow the sorted products of the ledger, so every worker agrees on them.
package struct ProductIndex: Sendable {
    package let keys: [ProductKey]
    /// Per transaction index, its product's index.
    let ofTransaction: [Int32]

    package init(ledger: Ledger) {
        keys = Self.keys(of: ledger)
        let index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, Int32($0)) })
        ofTransaction = ledger.withTransactions { transactions in
            transactions.map { index[Self.key(of: $0)] ?? 0 }
        }
    }

    /// The products of `ledger`'s transactions, in their order, after the empty product: the
    /// index's `keys`, without the index.
    package static func keys(of ledger: Ledger) -> [ProductKey] {
        // Gathered one by one: a set made from a list of every transaction's product would be
        // given room for all of them (a table of millions of slots for a few products).
        var distinct = Set<ProductKey>()
        ledger.withTransactions { transactions in
            for transaction in transactions { distinct.insert(key(of: transaction)) }
        }
        return [.none] + distinct.sorted { $0.precedes($1) }
    }

    private static func key(of transaction: LedgerTransaction) -> ProductKey {
        // Fields read in place: a key path through the record would copy it whole.
        ProductKey(id: transaction.box.record.productID, store: transaction.box.record.store)
    }

    /// The product of a transaction; the empty product (index 0) for none.
    package func of(transaction: Int?) -> Int { transaction.map { Int(ofTransaction[$0]) } ?? 0 }
}
