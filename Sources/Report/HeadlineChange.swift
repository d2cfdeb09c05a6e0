import Attribution
import Support

/// How one headline figure moved against the month before, for the page's cards and the
/// console: by how much, by what share, and whether that is worse.
package struct HeadlineChange: Sendable, Hashable {
    package enum Direction: Sendable, Hashable {
        case up, down, same
    }

    package var current: Money
    package var previous: Money
    package var month: CivilMonth
    /// Whether more of it is bad news (a leak), or neither (cost served grows with the business).
    var upIsWorse: Bool

    package var delta: Money { Money(nanos: current.nanos &- previous.nanos) }

    /// `September 2026`, as the page names the month compared with.
    package var monthName: String { PageText.monthName(month) }

    package var direction: Direction {
        current > previous ? .up : current < previous ? .down : .same
    }

    /// True when the figure moved the bad way.
    package var isWorse: Bool { upIsWorse && direction == .up }
    var isBetter: Bool { upIsWorse && direction == .down }

    /// The change as a share of the month before, in tenths of a percent, rounded half away
    /// from zero; nil when the month before had none (no share of nothing).
    package var tenthsOfPercent: Int64? {
        guard previous != .zero else { return nil }
        let scaled = Int128(delta.nanos) * 1000
        let whole = Int128(previous.nanos.magnitude)
        let rounded = (scaled.magnitude + whole.magnitude / 2) / whole.magnitude
        return Int64(scaled < 0 ? -Int128(rounded) : Int128(rounded))
    }

    /// `▲ +181.28 USD (+150.5%) vs September 2026`, with `amount` writing the money.
    package func words(amount: (Money) -> String, monthName: String) -> String {
        switch direction {
        case .same:
            return "= no change vs \(monthName)"
        case .up, .down:
            let arrow = direction == .up ? "▲" : "▼"
            let magnitude = Money(nanos: direction == .up ? delta.nanos : -delta.nanos)
            let sign = direction == .up ? "+" : "−"
            guard let tenths = tenthsOfPercent else {
                return "\(arrow) \(sign)\(amount(magnitude)) vs \(monthName), which had none"
            }
            return
                "\(arrow) \(sign)\(amount(magnitude)) (\(sign)\(tenths.magnitude / 10).\(tenths.magnitude % 10)%) vs \(monthName)"
        }
    }
}

extension ReportFigures {
    /// The change of each headline figure against the month before, in the cards' order; nil
    /// when the data holds no month before the window to compare with.
    package func headlineChanges() throws -> HeadlineChanges? {
        guard let previous = previousMonth else { return nil }
        let all = total
        func change(_ current: Money, _ before: Money, upIsWorse: Bool = true) -> HeadlineChange {
            HeadlineChange(current: current, previous: before, month: previous.month, upIsWorse: upIsWorse)
        }
        return HeadlineChanges(
            costServed: change(try all.classes.total(), previous.costServed, upIsWorse: false),
            refunded: change(all.refundedAmount, previous.refundedAmount),
            refundSunkCost: change(all.refundSunkCost, previous.refundSunkCost),
            leaked: change(try all.leakedCost(), previous.leaked),
            recurringLoss: change(all.recurringLossRunRate, previous.recurringLossRunRate),
            billingGrace: change(all.classes[.billingGrace], previous.billingGrace))
    }
}

/// The six headline figures' changes.
package struct HeadlineChanges: Sendable, Hashable {
    package var costServed: HeadlineChange
    package var refunded: HeadlineChange
    package var refundSunkCost: HeadlineChange
    package var leaked: HeadlineChange
    package var recurringLoss: HeadlineChange
    package var billingGrace: HeadlineChange
}
