/// Each account's transactions (indices into the ledger's `transactions`), in one flat list.
///
/// An array of arrays took a heap block for every account (about 64 bytes with the few indices
/// an account holds); here an account is a 4-byte offset and a transaction a 4-byte index.
package struct AccountTransactions: Sendable {
    /// Where each account's indices begin in `indices`, and where the last one's end.
    private var offsets: [Int32]
    private var indices: [Int32]

    /// `holders[transaction]` is the account holding it (nil: none), of `accounts` in all.
    init(holders: [Int32?], accounts: Int) {
        var offsets = [Int32](repeating: 0, count: accounts + 1)
        for case let account? in holders { offsets[Int(account) + 1] += 1 }
        for account in 0..<accounts { offsets[account + 1] += offsets[account] }
        var next = offsets
        var indices = [Int32](repeating: 0, count: Int(offsets[accounts]))
        for (transaction, holder) in holders.enumerated() {
            guard let account = holder.map(Int.init) else { continue }
            indices[Int(next[account])] = Int32(transaction)
            next[account] += 1
        }
        self.offsets = offsets
        self.indices = indices
    }

    package var count: Int { offsets.count - 1 }

    /// The transactions `account` holds, in their order.
    package subscript(account: Int) -> [Int] {
        indices[Int(offsets[account])..<Int(offsets[account + 1])].map(Int.init)
    }

    /// Sorts each account's transactions with `precedes`.
    mutating func sortEachAccount(by precedes: (Int, Int) -> Bool) {
        for account in 0..<count {
            indices[Int(offsets[account])..<Int(offsets[account + 1])].sort { precedes(Int($0), Int($1)) }
        }
    }
}
