import Support

/// One delivery-cost row as read from `costs/*.csv`, before attribution.
///
/// The text fields are views into the reader's buffer, valid only inside the call that
/// receives the row: intern what must be kept.
package struct CostRow {
    package var timestamp: Timestamp
    package var accountID: UnsafeRawBufferPointer
    package var category: UnsafeRawBufferPointer
    package var cost: Money
    package var currency: CurrencyCode
    /// Units delivered, exact to nine decimals, in nano-units; nil when the file has none.
    package var quantityNanos: Int64?
    package var unit: UnsafeRawBufferPointer
    package var line: Int
    /// The request id this row claimed first, when the registry hands claims to the rows' sink
    /// (`RequestRegistry.claimsGoToRows`: respond's state keeps them as it keeps the rows).
    package var claimed: RequestEntry?

    package init(
        timestamp: Timestamp, accountID: UnsafeRawBufferPointer, category: UnsafeRawBufferPointer, cost: Money,
        currency: CurrencyCode, quantityNanos: Int64?, unit: UnsafeRawBufferPointer, line: Int
    ) {
        self.timestamp = timestamp
        self.accountID = accountID
        self.category = category
        self.cost = cost
        self.currency = currency
        self.quantityNanos = quantityNanos
        self.unit = unit
        self.line = line
    }

    /// True when the row draws prepaid credits (`unit` is `credit`), docs/domain.md rule 7.
    @inline(__always)
    package var usesCredits: Bool {
        unit.count == 6 && unit.elementsEqual("credit".utf8)
    }
}
