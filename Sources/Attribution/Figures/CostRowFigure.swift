import Support

/// What the cost rows added up to before conversion, per input currency, and how many fell
/// inside, before and after the window: what the reconciliation checks and the page counts.
package struct CostRowFigure: Sendable {
    package struct Currency: Sendable {
        package var currency: CurrencyCode
        /// Accepted rows' cost inside the window, and before and after it (history only).
        package var inWindow: Money
        package var beforeWindow: Money
        package var afterWindow: Money
        /// The window's cost of this currency by class, before conversion, summed.
        package var classes: Money
    }

    package var rowsInWindow: Int
    package var rowsBeforeWindow: Int
    package var rowsAfterWindow: Int
    /// Every currency rows came in, sorted.
    package var byCurrency: [Currency]

    init(_ totals: AttributionTotals) throws {
        rowsInWindow = totals.rowsInWindow
        rowsBeforeWindow = totals.rowsBeforeWindow
        rowsAfterWindow = totals.rowsAfterWindow
        var currencies = Set(totals.inputByCurrency.byCurrency.keys)
        currencies.formUnion(totals.costBeforeWindow.byCurrency.keys)
        currencies.formUnion(totals.costAfterWindow.byCurrency.keys)
        currencies.formUnion(totals.classByCurrency.keys)
        byCurrency = try currencies.sorted().map { currency in
            Currency(
                currency: currency, inWindow: totals.inputByCurrency.byCurrency[currency] ?? .zero,
                beforeWindow: totals.costBeforeWindow.byCurrency[currency] ?? .zero,
                afterWindow: totals.costAfterWindow.byCurrency[currency] ?? .zero,
                classes: try totals.classByCurrency[currency]?.total() ?? .zero)
        }
    }
}
