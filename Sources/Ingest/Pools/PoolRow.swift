import Support

/// One charge of a FOCUS bill, read and checked: a cost over a charge period that knows a
/// service and a resource but no end user, until an allocation line spreads it over usage.
package struct PoolRow: Sendable, Hashable, Codable {
    package var file: String
    package var line: Int
    /// `ChargePeriodStart` (inclusive) and `ChargePeriodEnd` (exclusive), as FOCUS defines them.
    package var start: Timestamp
    package var end: Timestamp
    package var billedCost: Money?
    package var effectiveCost: Money?
    package var currency: CurrencyCode
    /// `Usage`, `Purchase`, `Tax`, `Credit` or `Adjustment` (FOCUS 1.0+); `Usage` when the
    /// export has no such column.
    package var chargeCategory: String
    package var serviceName: String
    package var resourceID: String
    /// `Tags`, a JSON object of key and value; values that are not strings as written.
    package var tags: [String: String]

    /// The cost an allocation line takes; nil when the export has no such column.
    package func cost(_ column: PoolCostColumn) -> Money? {
        switch column {
        case .effective: effectiveCost
        case .billed: billedCost
        }
    }

    /// `costs/bill.csv:17`, where the row came from.
    package var location: String { "\(file):\(line)" }
}
