import Support

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
