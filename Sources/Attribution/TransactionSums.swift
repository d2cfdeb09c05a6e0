import Support

/// What cost rows were tied to, transaction by transaction, for only the transactions they
/// touched, in increasing order of their index in the whole ledger.
///
/// The totals of one reading hold these sums in arrays over every transaction of their ledger,
/// which is what attribution indexes fastest. A partial cut by account reads its rows against
/// a group's ledger, whose transactions are few, and moves its totals to the whole ledger's
/// indices: kept as arrays, they would weigh every transaction of every account in every
/// partial task, whatever the group. Kept as this list, they weigh what the partial's rows
/// touched; the merge adds them into its arrays over the whole ledger.
package struct TransactionSums: Sendable, Codable, Equatable {
    /// The whole ledger's transaction indices, increasing; each has one value in every array.
    private(set) var indices: [Int32] = []
    private(set) var entitledInWindow: [Money] = []
    private(set) var afterEndInWindow: [Money] = []
    private(set) var granted: [Money] = []
    private(set) var afterRefund: [Money] = []
    private(set) var tied: [Money] = []
    private(set) var firstTiedAt: [Int64] = []

    package init() {}

    /// The sums `totals` holds in arrays, for the transactions any row touched, each local
    /// index `i` moved to `transactions[i]` (increasing, as a group's ledger lists them).
    init(_ totals: AttributionTotals, movingTo transactions: [Int32]) {
        for local in totals.tiedByTransaction.indices where totals.touched(local) {
            append(
                transactions[local], entitled: totals.entitledInWindow[local], afterEnd: totals.afterEndInWindow[local],
                granted: totals.grantedByTransaction[local], afterRefund: totals.afterRefundByTransaction[local],
                tied: totals.tiedByTransaction[local], firstTiedAt: totals.firstTiedAt[local])
        }
    }

    var count: Int { indices.count }

    private mutating func append(
        _ index: Int32, entitled: Money, afterEnd: Money, granted: Money, afterRefund: Money, tied: Money, firstTiedAt: Int64
    ) {
        indices.append(index)
        entitledInWindow.append(entitled)
        afterEndInWindow.append(afterEnd)
        self.granted.append(granted)
        self.afterRefund.append(afterRefund)
        self.tied.append(tied)
        self.firstTiedAt.append(firstTiedAt)
    }

    /// Appends position `at` of `sums`, added to what was last appended when it is the same
    /// transaction (two groups' ledgers can both hold a transaction of a shared subscription).
    private mutating func add(_ sums: TransactionSums, at position: Int) throws(MoneyError) {
        let index = sums.indices[position]
        guard indices.last == index else {
            append(
                index, entitled: sums.entitledInWindow[position], afterEnd: sums.afterEndInWindow[position],
                granted: sums.granted[position], afterRefund: sums.afterRefund[position], tied: sums.tied[position],
                firstTiedAt: sums.firstTiedAt[position])
            return
        }
        let last = indices.count - 1
        entitledInWindow[last] = try entitledInWindow[last].adding(sums.entitledInWindow[position])
        afterEndInWindow[last] = try afterEndInWindow[last].adding(sums.afterEndInWindow[position])
        granted[last] = try granted[last].adding(sums.granted[position])
        afterRefund[last] = try afterRefund[last].adding(sums.afterRefund[position])
        tied[last] = try tied[last].adding(sums.tied[position])
        firstTiedAt[last] = min(firstTiedAt[last], sums.firstTiedAt[position])
    }

    /// These sums and `other`'s, in one list: the two walked in index order together.
    func merged(with other: TransactionSums) throws(MoneyError) -> TransactionSums {
        var merged = TransactionSums()
        var mine = 0
        var theirs = 0
        while mine < count || theirs < other.count {
            if theirs == other.count || (mine < count && indices[mine] <= other.indices[theirs]) {
                try merged.add(self, at: mine)
                mine += 1
            } else {
                try merged.add(other, at: theirs)
                theirs += 1
            }
        }
        return merged
    }

    /// Adds these sums into the arrays over every transaction of `totals`.
    func add(into totals: inout AttributionTotals) throws(MoneyError) {
        for position in indices.indices {
            let index = Int(indices[position])
            precondition(totals.tiedByTransaction.indices.contains(index), "totals over the same ledger")
            totals.entitledInWindow[index] = try totals.entitledInWindow[index].adding(entitledInWindow[position])
            totals.afterEndInWindow[index] = try totals.afterEndInWindow[index].adding(afterEndInWindow[position])
            totals.grantedByTransaction[index] = try totals.grantedByTransaction[index].adding(granted[position])
            totals.afterRefundByTransaction[index] = try totals.afterRefundByTransaction[index].adding(afterRefund[position])
            totals.tiedByTransaction[index] = try totals.tiedByTransaction[index].adding(tied[position])
            totals.firstTiedAt[index] = min(totals.firstTiedAt[index], firstTiedAt[position])
        }
    }
}

extension AttributionTotals {
    /// True when a row was tied to the transaction at `index`, in any of the arrays.
    fileprivate func touched(_ index: Int) -> Bool {
        firstTiedAt[index] != .max || tiedByTransaction[index] != .zero || grantedByTransaction[index] != .zero
            || entitledInWindow[index] != .zero || afterEndInWindow[index] != .zero
            || afterRefundByTransaction[index] != .zero
    }
}
