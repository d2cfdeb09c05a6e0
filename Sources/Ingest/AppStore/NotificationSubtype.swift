import Support

/// A notification's `subtype`, for the subtypes the product writes or acts on.
package enum NotificationSubtype: String, Sendable, Hashable, CaseIterable {
    case initialBuy = "INITIAL_BUY"
    case resubscribe = "RESUBSCRIBE"
    case upgrade = "UPGRADE"
    case downgrade = "DOWNGRADE"
    case voluntary = "VOLUNTARY"
    case billingRetry = "BILLING_RETRY"
    case billingRecovery = "BILLING_RECOVERY"
    case gracePeriod = "GRACE_PERIOD"
}
