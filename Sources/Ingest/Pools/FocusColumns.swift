import Support

/// Where the columns a cost pool needs sit in a FOCUS export's header.
///
/// FOCUS (the FinOps Open Cost and Usage Specification, 1.0 to 1.3) names its columns in
/// PascalCase: `BilledCost`, `EffectiveCost`, `BillingCurrency`, `ChargePeriodStart`,
/// `ChargePeriodEnd`, `ChargeCategory`, `ServiceName`, `ResourceId`, `Tags`. They are found by
/// name wherever they stand; provider columns (`x_...`) and the many others are not read.
struct FocusColumns: Sendable, Hashable {
    package var width: Int
    package var billedCost: Int?
    package var effectiveCost: Int?
    package var currency: Int
    package var periodStart: Int
    package var periodEnd: Int
    package var chargeCategory: Int?
    package var serviceName: Int?
    package var resourceID: Int?
    package var tags: Int?

    /// True for a header that is a FOCUS bill: a charge period, a billing currency and a cost.
    static func isFocus(_ header: [String]) -> Bool {
        let found = HeaderColumns(header)
        return found.index("ChargePeriodStart") != nil && found.index("BillingCurrency") != nil
            && (found.index("BilledCost") != nil || found.index("EffectiveCost") != nil)
    }

    /// The columns of a FOCUS header; nil when it is not one (`isFocus`).
    package init?(header: [String]) {
        let found = HeaderColumns(header)
        guard let currency = found.index("BillingCurrency"), let periodStart = found.index("ChargePeriodStart"),
            let periodEnd = found.index("ChargePeriodEnd")
        else { return nil }
        width = header.count
        billedCost = found.index("BilledCost")
        effectiveCost = found.index("EffectiveCost")
        guard billedCost != nil || effectiveCost != nil else { return nil }
        self.currency = currency
        self.periodStart = periodStart
        self.periodEnd = periodEnd
        chargeCategory = found.index("ChargeCategory")
        serviceName = found.index("ServiceName")
        resourceID = found.index("ResourceId")
        tags = found.index("Tags")
    }

}

/// Which of a FOCUS row's costs is spread: `EffectiveCost` carries discounts and amortized
/// commitments (what the usage really cost), `BilledCost` what the invoice says.
package enum PoolCostColumn: String, Sendable, Hashable, Codable, CaseIterable {
    case effective = "EffectiveCost"
    case billed = "BilledCost"
}
