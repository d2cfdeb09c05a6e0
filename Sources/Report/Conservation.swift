import Attribution
import Support

/// The reconciliation every run makes and records: nothing accepted is lost, and every
/// breakdown adds up to the same total.
package struct Conservation: Sendable {
    package struct CurrencyLine: Sendable {
        package var currency: CurrencyCode
        /// Accepted cost rows in this currency, all of them.
        package var accepted: Money
        package var inWindow: Money
        package var beforeWindow: Money
        package var afterWindow: Money
        /// In-window cost by class, before conversion.
        package var classes: Money

        /// Exactly: an overflow in the sum can only mean the totals are wrong, so it fails the check.
        package var holds: Bool {
            guard let read = try? inWindow.adding(beforeWindow).adding(afterWindow) else { return false }
            return classes == inWindow && read == accepted
        }
    }

    package var byCurrency: [CurrencyLine]
    /// In the report currency: totals.csv's classes, the product rows, and cost_by_day.
    package var classTotal: Money
    package var productRowsTotal: Money
    package var costByDayTotal: Money
    /// The FOCUS bill: pool cost read = allocated + unallocated; nil when the data has none.
    package var allocation: PoolAllocation?

    package var holds: Bool {
        byCurrency.allSatisfy(\.holds) && classTotal == productRowsTotal && classTotal == costByDayTotal
            && allocation?.holds != false
    }

    package init(figures: ReportFigures, accepted: CostTotals) throws {
        let rows = Dictionary(uniqueKeysWithValues: figures.costRows.byCurrency.map { ($0.currency, $0) })
        var currencies = Set(accepted.byCurrency.keys)
        currencies.formUnion(rows.keys)
        byCurrency = currencies.sorted().map { currency in
            let line = rows[currency]
            return CurrencyLine(
                currency: currency, accepted: accepted.byCurrency[currency] ?? .zero, inWindow: line?.inWindow ?? .zero,
                beforeWindow: line?.beforeWindow ?? .zero, afterWindow: line?.afterWindow ?? .zero,
                classes: line?.classes ?? .zero)
        }
        classTotal = try figures.total.classes.total()
        var products = Money.zero
        for row in figures.summary { products = try products.adding(row.classes.total()) }
        productRowsTotal = products
        var days = Money.zero
        for row in figures.costByDay { days = try days.adding(row.cost) }
        costByDayTotal = days
        allocation = figures.allocation
    }

    /// One line for the terminal and the page.
    package func sentence(currency: CurrencyCode) -> String {
        let inputs = byCurrency.map { "\($0.inWindow) \($0.currency)" }.joined(separator: " + ")
        let verdict = holds ? "holds" : "DOES NOT HOLD"
        return "reconciliation \(verdict): cost in the window \(inputs.isEmpty ? "0" : inputs) = \(classTotal) \(currency) "
            + "across the classes, the product rows and cost_by_day" + (billSentence.map { "; " + $0 } ?? "")
    }

    /// The bill's part: `pool cost 120.000000 USD read = 118.500000 allocated + 1.500000 unallocated`.
    var billSentence: String? {
        allocation.map { "pool cost " + $0.balance }
    }
}

package struct ConservationError: DiagnosticError {
    package var conservation: Conservation

    package init(conservation: Conservation) {
        self.conservation = conservation
    }

    package var diagnostic: Diagnostic {
        var text =
            "the totals do not reconcile, so no report was written. This is a bug in refund-cost; please report it with run.json.\n"
        for line in conservation.byCurrency where !line.holds {
            text +=
                "  \(line.currency): accepted \(line.accepted), in window \(line.inWindow) + before \(line.beforeWindow) + after \(line.afterWindow); classes \(line.classes)\n"
        }
        if let bill = conservation.billSentence, conservation.allocation?.holds == false { text += "  \(bill)\n" }
        text +=
            "  classes \(conservation.classTotal), product rows \(conservation.productRowsTotal), cost_by_day \(conservation.costByDayTotal)\n"
        return Diagnostic(text)
    }
}
