import Support

extension CostRowChecker {
    /// `quantity x price` of the row's category and unit on its day, rounded once to nine
    /// decimals; or why the row cannot be priced.
    func price(_ quantityNanos: Int64?, category categoryText: String, unit unitText: String, at time: Timestamp)
        -> Result<(Money, CurrencyCode), PricingError>
    {
        guard let quantityNanos else {
            return .failure(PricingError("the cost is empty and the row has no quantity to price: give the cost"))
        }
        guard let found = prices.price(category: categoryText, unit: unitText, at: time) else {
            let what = unitText.isEmpty ? categoryText : "\(categoryText) per \(unitText)"
            return .failure(
                PricingError(
                    "the cost is empty and prices.csv has no price for \(what) on \(time.civilDate): "
                        + "give the cost, or add a line \(categoryText),\(unitText),PRICE,CURRENCY,FROM to prices.csv"))
        }
        guard let cost = try? found.price.scaled(by: quantityNanos, over: Money.nanosPerUnit) else {
            return .failure(PricingError("quantity x price is beyond what an amount can hold"))
        }
        return .success((cost, found.currency))
    }
}

/// Why a row with no cost could not be priced.
struct PricingError: Error {
    package let reason: String
    init(_ reason: String) { self.reason = reason }
}
