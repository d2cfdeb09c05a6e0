import Support

/// The sums per transaction that every thread reading cost rows adds to at once.
///
/// They are `AttributionTotals`' arrays (`entitledInWindow` ... `firstTiedAt`), added in place
/// by atomic instructions: one set of 48 bytes a transaction for the run instead of one a
/// thread (77 MB a thread at a million accounts). The sums are the same whichever thread adds
/// a row: whole nanos add up exactly in any order.
package final class SharedTransactionSums: @unchecked Sendable {
    /// The sums of money, one a transaction each.
    enum Column: Int, CaseIterable {
        case entitledInWindow, afterEndInWindow, granted, afterRefund, tied
    }

    private let transactions: Int
    // Changed only by `store`, once every thread is done.
    private var money: [AtomicCells]
    private var firstTiedAt: AtomicCells

    package init(transactions: Int) {
        self.transactions = transactions
        money = Column.allCases.map { _ in AtomicCells(count: transactions, value: 0) }
        firstTiedAt = AtomicCells(count: transactions, value: .max)
    }

    /// What the reading threads add through, valid until `store`.
    var adder: Adder {
        Adder(
            entitledInWindow: money[Column.entitledInWindow.rawValue].unretained,
            afterEndInWindow: money[Column.afterEndInWindow.rawValue].unretained,
            granted: money[Column.granted.rawValue].unretained, afterRefund: money[Column.afterRefund.rawValue].unretained,
            tied: money[Column.tied.rawValue].unretained, firstTiedAt: firstTiedAt.unretained)
    }

    /// The sums' cells by address, which every reading thread adds through.
    ///
    /// Adding through them touches no reference count, which every thread would otherwise write
    /// for every row (a reference to these sums, and to each column, retained and released
    /// around each addition). Held beside the sums themselves (`Attributor`), which keep the
    /// cells alive; used only before `store`.
    struct Adder: Sendable {
        fileprivate let entitledInWindow: UnretainedAtomicCells
        fileprivate let afterEndInWindow: UnretainedAtomicCells
        fileprivate let granted: UnretainedAtomicCells
        fileprivate let afterRefund: UnretainedAtomicCells
        fileprivate let tied: UnretainedAtomicCells
        fileprivate let firstTiedAt: UnretainedAtomicCells

        /// Adds `cost` to `column` of `transaction`; throws when the sum would leave Money's range.
        func add(_ cost: Money, to column: Column, of transaction: Int) throws(MoneyError) {
            let cells =
                switch column {
                case .entitledInWindow: entitledInWindow
                case .afterEndInWindow: afterEndInWindow
                case .granted: granted
                case .afterRefund: afterRefund
                case .tied: tied
                }
            guard cells.add(cost.nanos, at: transaction) else { throw .outOfRange }
        }

        /// Makes `milliseconds` the first tied time of `transaction` when it is earlier.
        func tie(_ transaction: Int, at milliseconds: Int64) {
            firstTiedAt.lower(transaction, to: milliseconds)
        }
    }

    /// Moves the sums into the arrays of `totals`, which hold none, once every thread is done:
    /// a column at a time, each let go once copied, so the copy adds one column, not six.
    package func store(in totals: inout AttributionTotals) {
        func take(_ column: Column) -> [Money] {
            let cells = money[column.rawValue]
            money[column.rawValue] = AtomicCells(count: 0, value: 0)
            return (0..<transactions).map { Money(nanos: cells[$0]) }
        }
        totals.entitledInWindow = take(.entitledInWindow)
        totals.afterEndInWindow = take(.afterEndInWindow)
        totals.grantedByTransaction = take(.granted)
        totals.afterRefundByTransaction = take(.afterRefund)
        totals.tiedByTransaction = take(.tied)
        let tied = firstTiedAt
        firstTiedAt = AtomicCells(count: 0, value: .max)
        totals.firstTiedAt = (0..<transactions).map { tied[$0] }
    }
}
