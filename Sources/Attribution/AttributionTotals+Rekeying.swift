import Ingest
import Ledger
import Support

extension AttributionTotals {
    /// These totals, worked out against a ledger of some accounts, as the totals of the same
    /// rows against the ledger of every account: each transaction, account and product index
    /// of the smaller ledger (`transactions[i]`, `accounts[i]`, `products[i]`) made the larger
    /// one's, which has `productCount` products.
    ///
    /// The per-transaction sums become a list of the transactions the rows touched
    /// (`touchedTransactions`), not arrays over every transaction of the larger ledger: a
    /// partial of one group holds what its rows touched, whatever the number of accounts.
    ///
    /// A ledger of some accounts lists its transactions and accounts in the order the whole
    /// ledger does, so the maps are increasing; a test holds the totals of every group, moved
    /// and merged, to those of one reading of everything (`AccountGroupTests`).
    package func moved(transactions: [Int32], accounts: [Int32], products: [Int32], productCount: Int) -> AttributionTotals {
        var moved = self
        func product(_ index: Int) -> Int { Int(products[index]) }
        func key(_ local: TransactionAccountKey) -> TransactionAccountKey {
            TransactionAccountKey(
                account: local.account < 0 ? local.account : accounts[Int(local.account)],
                transaction: local.transaction < 0 ? local.transaction : transactions[Int(local.transaction)])
        }
        moved.classByProduct = Array(repeating: ClassCosts(), count: productCount)
        moved.beyondGraceByProduct = Array(repeating: .zero, count: productCount)
        moved.leakingAccountsByProduct = Array(repeating: [], count: productCount)
        for index in classByProduct.indices {
            moved.classByProduct[product(index)] = classByProduct[index]
            moved.beyondGraceByProduct[product(index)] = beyondGraceByProduct[index]
            moved.leakingAccountsByProduct[product(index)] = Set(leakingAccountsByProduct[index].map { accounts[Int($0)] })
        }
        moved.leaks = Dictionary(uniqueKeysWithValues: leaks.map { (key($0.key), $0.value) })
        moved.billingGrace = Dictionary(uniqueKeysWithValues: billingGrace.map { (key($0.key), $0.value) })
        moved.subscriptionLeaks = Dictionary(uniqueKeysWithValues: subscriptionLeaks.map { (key($0.key), $0.value) })
        moved.touchedTransactions = TransactionSums(self, movingTo: transactions)
        moved.entitledInWindow = []
        moved.afterEndInWindow = []
        moved.grantedByTransaction = []
        moved.afterRefundByTransaction = []
        moved.tiedByTransaction = []
        moved.firstTiedAt = []
        moved.creditRows = BlockList(
            creditRows.lazy.map { row in
                var mapped = row
                mapped.account = accounts[Int(row.account)]
                return mapped
            })
        return moved
    }
}
