import Support

/// An amount as Google's APIs write money (`Money`): `{"currencyCode": "USD", "units": "4",
/// "nanos": 990000000}`, units an int64 in a string, nanos the billionths with the units' sign.
package struct PlayAmount: Sendable, Hashable, Codable {
    package var currency: CurrencyCode
    package var money: Money

    package init(currency: CurrencyCode, money: Money) {
        self.currency = currency
        self.money = money
    }

    /// Reads a `Money` object; exact, since the tool's money is in nano-units too.
    static func read(_ cursor: inout JSONCursor) throws -> PlayAmount {
        var currency: String?
        var units: Int64 = 0
        var nanos: Int64 = 0
        try cursor.members { cursor, key in
            if key == "currencyCode" {
                currency = try cursor.optionalString()
            } else if key == "units" {
                units = cursor.null() ? 0 : try cursor.wholeNumber()
            } else if key == "nanos" {
                nanos = cursor.null() ? 0 : try cursor.wholeNumber()
            } else {
                try cursor.skip()
            }
        }
        guard let code = currency.flatMap(CurrencyCode.init(validating:)) else {
            throw JSONError(reason: "a three-letter currency code is required", field: "currencyCode")
        }
        guard abs(nanos) < Money.nanosPerUnit, units == 0 || nanos == 0 || (units < 0) == (nanos < 0) else {
            throw JSONError(reason: "nanos must be below one unit and of the units' sign", field: "nanos")
        }
        let (scaled, overflow) = units.multipliedReportingOverflow(by: Money.nanosPerUnit)
        let (total, overflowAdding) = scaled.addingReportingOverflow(nanos)
        guard !overflow, !overflowAdding, abs(units) <= PlayOrder.largestUnits else {
            throw JSONError(reason: "amount out of range (a billion units at most)", field: "units")
        }
        return PlayAmount(currency: code, money: Money(nanos: total))
    }
}
