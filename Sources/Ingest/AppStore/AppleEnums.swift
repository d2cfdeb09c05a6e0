import Support

// Apple's enumerations grow every year: records keep the raw string, and these typed views
// return nil for a value this version does not know, instead of failing to decode.

/// `inAppOwnershipType`.
package enum Ownership: String, Sendable, Hashable, CaseIterable {
    case purchased = "PURCHASED"
    case familyShared = "FAMILY_SHARED"

    /// As reports write it: `purchased`, `family_shared`.
    package var reportName: String {
        switch self {
        case .purchased: "purchased"
        case .familyShared: "family_shared"
        }
    }
}

/// A transaction's `type`.
package enum ProductType: String, Sendable, Hashable, CaseIterable {
    case autoRenewable = "Auto-Renewable Subscription"
    case nonConsumable = "Non-Consumable"
    case consumable = "Consumable"
    case nonRenewing = "Non-Renewing Subscription"
}

/// `revocationType` (in data since December 2025).
package enum RevocationType: String, Sendable, Hashable, CaseIterable {
    case refundFull = "REFUND_FULL"
    case refundProrated = "REFUND_PRORATED"
    case familyRevoke = "FAMILY_REVOKE"
}

/// `environment`.
package enum AppStoreEnvironment: String, Sendable, Hashable, CaseIterable, Codable {
    case production = "Production"
    case sandbox = "Sandbox"
    case xcode = "Xcode"
    /// StoreKit testing in Apple's own test vectors.
    case localTesting = "LocalTesting"

    /// V1 bodies say `PROD` and `Sandbox`.
    package init?(v1 text: String) {
        switch text {
        case "PROD", "Production": self = .production
        case "Sandbox": self = .sandbox
        default: return nil
        }
    }
}

/// The notification types the product knows; every other type is kept and counted.
package enum NotificationType: String, Sendable, Hashable, CaseIterable {
    case refund = "REFUND"
    case refundReversed = "REFUND_REVERSED"
    case refundDeclined = "REFUND_DECLINED"
    case revoke = "REVOKE"
    case consumptionRequest = "CONSUMPTION_REQUEST"
    case subscribed = "SUBSCRIBED"
    case didRenew = "DID_RENEW"
    case expired = "EXPIRED"
    case oneTimeCharge = "ONE_TIME_CHARGE"
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"

    /// V1 names mapped onto V2 meaning: `CANCEL` is a refund of an auto-renewable subscription.
    package init?(v1 text: String) {
        switch text {
        case "REFUND", "CANCEL": self = .refund
        case "REVOKE": self = .revoke
        case "CONSUMPTION_REQUEST": self = .consumptionRequest
        case "DID_RENEW": self = .didRenew
        case "INITIAL_BUY": self = .subscribed
        case "DID_CHANGE_RENEWAL_STATUS": self = .didChangeRenewalStatus
        default: return nil
        }
    }
}

/// `revocationReason`: why Apple refunded.
package enum RevocationReason: Int, Sendable, Hashable, CaseIterable {
    case other = 0
    case appIssue = 1

    /// As reports write it: `other`, `app_issue`.
    package var reportName: String {
        switch self {
        case .other: "other"
        case .appIssue: "app_issue"
        }
    }
}

/// The customer's stated reason in a `CONSUMPTION_REQUEST`.
package enum ConsumptionReason: String, Sendable, Hashable, CaseIterable {
    case unintendedPurchase = "UNINTENDED_PURCHASE"
    case fulfillmentIssue = "FULFILLMENT_ISSUE"
    case unsatisfiedWithPurchase = "UNSATISFIED_WITH_PURCHASE"
    case legal = "LEGAL"
    case other = "OTHER"
}

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
