/// How often each thing happens in a generated dataset: every weight the generator draws with,
/// by name, so the mix can be read and changed in one place.
///
/// Weights are relative within their table; percentages are chances out of 100.
enum ScenarioWeights {
    /// What a new household is: an anonymous user, a buyer of access, a buyer of credits.
    static let household = (unlinked: 8, access: 74, credits: 18)
    /// Chance that a household comes with a Sandbox test purchase beside it.
    static let sandboxNoisePercent = 3

    /// What access was bought: a monthly or yearly subscription, or a lifetime unlock.
    static let product = (monthly: 55, yearly: 18, lifetime: 27)
    /// Family members sharing it, 0 to 5.
    static let familyMembers = [40, 20, 15, 12, 8, 5]
    static let euroPercent = 10
    static let freeUseBeforePurchasePercent = 40

    /// What happens to the purchase (some are impossible for some purchases and fall back to none).
    static let event = (
        none: 50, refund: 14, prorated: 5, reversal: 3, exit: 10, upgrade: 4, autoRenewOff: 14, billingGrace: 9
    )
    /// A renewal that failed with billing grace: how long Apple keeps access while it retries
    /// (its 16-day option), and how often billing recovers inside the grace.
    static let graceDays: Int64 = 16
    static let graceRecoveredPercent = 60
    /// A refund hits the latest transaction of the chain, or (this often) the one before.
    static let refundPreviousPeriodPercent = 30
    static let appIssueRefundPercent = 20
    static let consumptionRequestOnRefundPercent = 25
    static let consentOnRefundRequestPercent = 60
    static let refundRequestReason = (unsatisfied: 50, unintended: 30, other: 20)
    static let datedExitPercent = 50

    /// How the app's server behaved.
    static let serverRevokesMembersPercent = 70
    static let serverCutsPurchaserPercent = 80
    static let servedAfterExpiryPercent = 30
    static let prematureGrantPercent = 40
    static let secondValidTransactionPercent = 25
    static let memberServedToWindowEndPercent = 50
    static let serverLeaksExitPercent = 50
    static let linkedByTokenPercent = 30

    /// Credit packs.
    static let consumptionRequestOnPackPercent = 35
    static let packRequestReason = (unintended: 30, fulfillment: 20, unsatisfied: 30, legal: 5, other: 15)
    static let undeliveredOnFulfillmentPercent = 50
    static let deliveryRecordedPercent = 30
    static let packRequestOutcome = (granted: 45, declined: 35, pending: 20)
    static let consentedBuyerPercent = 70
}
