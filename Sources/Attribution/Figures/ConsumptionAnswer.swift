import Ingest
import Ledger
import Support

/// docs/domain.md rule 11: the reason is a lens, not a verdict; delivery facts and use decide.
package enum ConsumptionAnswer {
    /// The preference and, in words, which facts decided it.
    package static func preference(
        reason rawReason: String?, delivery: DeliveryStatus, used: Int64, usedText: String, policy: ConsumptionPolicy
    ) -> (RefundPreference, String) {
        let reason = rawReason.flatMap(ConsumptionReason.init(rawValue:)) ?? .other
        let stated = rawReason ?? "no reason"
        if delivery != .delivered {
            return (.grantFull, "\(stated); not delivered (\(delivery.rawValue)) -> GRANT_FULL")
        }
        switch reason {
        case .legal:
            return (.grantFull, "LEGAL; a legal reason is not argued -> GRANT_FULL")
        case .unintendedPurchase:
            if used == 0 { return (.grantFull, "UNINTENDED_PURCHASE; delivered, \(usedText), nothing used -> GRANT_FULL") }
            if used >= policy.heavyUse {
                return (
                    .decline,
                    "UNINTENDED_PURCHASE; delivered, \(usedText), at least \(percent(policy.heavyUse)) used contradicts it -> DECLINE"
                )
            }
            return (.grantProrated, "UNINTENDED_PURCHASE; delivered, \(usedText), partly used -> GRANT_PRORATED")
        case .fulfillmentIssue, .unsatisfiedWithPurchase, .other:
            let lead = reason == .fulfillmentIssue ? "FULFILLMENT_ISSUE but delivery is confirmed" : stated
            if used >= policy.heavyUse {
                return (.decline, "\(lead); \(usedText), heavy use (at least \(percent(policy.heavyUse))) -> DECLINE")
            }
            if used > 0 { return (.grantProrated, "\(lead); \(usedText), partly used -> GRANT_PRORATED") }
            return (.grantFull, "\(lead); \(usedText), nothing used -> GRANT_FULL")
        }
    }

    /// `12.5%` from milliunits.
    package static func percent(_ milliunits: Int64) -> String {
        let tenths = (milliunits + 50) / 100
        return "\(tenths / 10).\(tenths % 10)%"
    }
}
