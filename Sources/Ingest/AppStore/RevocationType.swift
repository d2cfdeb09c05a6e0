import Support

/// `revocationType` (in data since December 2025).
package enum RevocationType: String, Sendable, Hashable, CaseIterable {
    case refundFull = "REFUND_FULL"
    case refundProrated = "REFUND_PRORATED"
    case familyRevoke = "FAMILY_REVOKE"
}
