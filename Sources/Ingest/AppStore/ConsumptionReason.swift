import Support

/// The customer's stated reason in a `CONSUMPTION_REQUEST`.
package enum ConsumptionReason: String, Sendable, Hashable, CaseIterable {
    case unintendedPurchase = "UNINTENDED_PURCHASE"
    case fulfillmentIssue = "FULFILLMENT_ISSUE"
    case unsatisfiedWithPurchase = "UNSATISFIED_WITH_PURCHASE"
    case legal = "LEGAL"
    case other = "OTHER"
}
