/// How one pool's cost is shared among the usage rows of its period, by the largest-remainder
/// method, exactly.
///
/// Every row's exact share is `cost x basis / total basis`. Each row first gets that share
/// rounded down to the step (a micro-unit); what is left, fewer steps than there are rows, goes
/// one step each to the rows with the largest remainders. Rows with equal remainders are taken
/// by larger basis first, then in file order (files by name, rows by line), so the shares are
/// the same whatever the number of threads, and they add up to the pool's cost to the last digit.
///
/// Rows with the same basis have the same share and remainder, so the plan is made per basis
/// value, not per row: its size is the number of distinct quantities, not of rows.
package struct PoolShares: Sendable {
    package enum Extra: Sendable {
        /// The rows of this value get no extra step.
        case none
        /// Every row of this value gets one extra step.
        case all
        /// The first `boundaryExtras` rows of this value, in file order, get one.
        case boundary
    }

    package struct ValueShare: Sendable {
        /// The share rounded down, in steps (of the cost's absolute value).
        package var steps: Int64
        package var extra: Extra
    }

    package var byValue: [Int64: ValueShare]
    package var boundaryValue: Int64?
    package var boundaryExtras: Int
    /// -1 for a negative cost (a credit): the absolute value is shared and the sign put back.
    package var sign: Int64
    package var step: Int64
    /// Rows the pool was spread over.
    package var rows: Int
    /// The cost's absolute value in steps, and the basis of all rows: a row's share is
    /// `amount x value / total` steps.
    var amountSteps: Int128
    package var total: Int128
    /// The first (remainder, value) in the order extras are handed out that does not get one
    /// for every row: rows above it get an extra step; rows at it get one when it is the boundary
    /// and they are among its first `boundaryExtras`.
    package var cut: (remainder: Int128, value: Int64)

    /// The plan for `amount` over rows counted by basis value; nil when the basis adds up to
    /// zero (no usage in the period, or none with a quantity), so nothing can be shared.
    package init?(amount: Money, step: Int64, rowsByValue: [Int64: Int]) {
        var total: Int128 = 0
        var rows = 0
        for (value, count) in rowsByValue {
            total += Int128(value) * Int128(count)
            rows += count
        }
        guard total > 0 else { return nil }
        sign = amount.nanos < 0 ? -1 : 1
        self.step = step
        self.rows = rows
        self.total = total
        let steps = Int128(amount.nanos.magnitude / UInt64(step))
        amountSteps = steps
        var byValue: [Int64: ValueShare] = [:]
        var remainders: [(value: Int64, remainder: Int128)] = []
        var handedOut: Int128 = 0
        for (value, count) in rowsByValue {
            let exact = steps * Int128(value)
            let share = exact / total
            byValue[value] = ValueShare(steps: Int64(share), extra: .none)
            handedOut += share * Int128(count)
            remainders.append((value, exact % total))
        }
        // Fewer left-over steps than rows: each goes to one row, largest remainder first.
        var left = Int(steps - handedOut)
        remainders.sort { $0.remainder != $1.remainder ? $0.remainder > $1.remainder : $0.value > $1.value }
        boundaryValue = nil
        boundaryExtras = 0
        // Fewer extras than rows: some value is reached with none (or some) left.
        cut = remainders.last.map { ($0.remainder, $0.value) } ?? (0, 0)
        for (value, remainder) in remainders {
            let count = rowsByValue[value] ?? 0
            if left > 0 && count <= left {
                byValue[value]?.extra = .all
                left -= count
                continue
            }
            if left > 0 {
                byValue[value]?.extra = .boundary
                boundaryValue = value
                boundaryExtras = left
            }
            cut = (remainder, value)
            break
        }
        self.byValue = byValue
    }

    /// The step a cost is shared in, in nano-units: a micro-unit, or a nano-unit when the amount
    /// has digits below the micro-unit, so the shares always add up to it.
    package static func step(for amount: Money) -> Int64 { amount.nanos % 1000 == 0 ? 1000 : 1 }

    /// What the per-row path needs, without the table of values: a few numbers, so a row's
    /// share is worked out rather than looked up (a lookup in a table of every quantity is a
    /// cache miss).
    package struct Rule: Sendable {
        var amountSteps: Int128
        var total: Int128
        var cut: (remainder: Int128, value: Int64)
        var boundaryValue: Int64?

        /// The share of a row with basis `value`: its steps rounded down and whether it gets an
        /// extra step, exactly as `byValue` says.
        @inline(__always)
        package func share(of value: Int64) -> ValueShare {
            let (quotient, remainder) = (amountSteps * Int128(value)).quotientAndRemainder(dividingBy: total)
            let extra: Extra
            if remainder > cut.remainder || (remainder == cut.remainder && value > cut.value) {
                extra = .all
            } else if remainder == cut.remainder && value == cut.value && boundaryValue == value {
                extra = .boundary
            } else {
                extra = .none
            }
            return ValueShare(steps: Int64(quotient), extra: extra)
        }
    }

    package var rule: Rule { Rule(amountSteps: amountSteps, total: total, cut: cut, boundaryValue: boundaryValue) }

    /// The share of a row with basis `value`, in nano-units, given whether it is among the
    /// boundary rows that get an extra step.
    @inline(__always)
    package func nanos(steps: Int64, extra: Bool) -> Int64 { sign * (steps + (extra ? 1 : 0)) * step }
}
