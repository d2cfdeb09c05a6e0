import Support

/// What answering refund requests earned (`report --journal`): each answer `respond` sent,
/// joined to how Apple decided the refund afterwards.
///
/// Without an answer Apple usually grants a refund; a refund Apple declined after the answer
/// asked it to keeps the purchase's price. Money is in the report currency: prices at the
/// purchase's day, refunds at the refund's day, as refunds.csv converts them.
package struct AnsweringFigure: Sendable, Hashable {
    package var requests = 0
    /// Requests whose answer Apple took (`sent`), and those of them sent within the 12 hours.
    package var answered = 0
    var answeredInTime = 0
    /// Answered requests by the preference sent and Apple's decision since.
    package var decisions: [Decision] = []
    /// Answered requests Apple decided, and those it decided as the answer preferred
    /// (DECLINE declined; GRANT_FULL or GRANT_PRORATED granted).
    package var decided = 0
    package var decidedAsPreferred = 0
    /// Refunds Apple declined after an answer, and the price they kept.
    package var declined = 0
    package var priceKept = Money.zero
    /// Refunds Apple granted after an answer, the price refunded, and the delivery cost already
    /// spent on those purchases.
    package var granted = 0
    package var priceRefunded = Money.zero
    package var deliveryCostRefunded = Money.zero
    /// Decided requests whose price the data does not give (left out of the sums).
    package var priceUnknown = 0

    package struct Decision: Sendable, Hashable {
        package var preference: RefundPreference
        package var granted = 0
        package var declined = 0
        package var pending = 0
    }

    package init() {}

    /// The figure of `requests`, each with the journal's word attached.
    package init(_ requests: [ConsumptionFigure]) throws {
        self.requests = requests.count
        var byPreference: [RefundPreference: Decision] = [:]
        for request in requests {
            guard let answered = request.answered, let preference = answered.sentPreference else { continue }
            self.answered += 1
            if answered.inTime { answeredInTime += 1 }
            var decision = byPreference[preference] ?? Decision(preference: preference)
            switch request.outcome {
            case .granted:
                decision.granted += 1
                granted += 1
                if let refunded = request.priceRefunded {
                    priceRefunded = try priceRefunded.adding(refunded)
                } else {
                    priceUnknown += 1
                }
                deliveryCostRefunded = try deliveryCostRefunded.adding(request.deliveredCost)
                if preference != .decline { decidedAsPreferred += 1 }
            case .declined:
                decision.declined += 1
                declined += 1
                if let price = request.price { priceKept = try priceKept.adding(price) } else { priceUnknown += 1 }
                if preference == .decline { decidedAsPreferred += 1 }
            case .pending:
                decision.pending += 1
            }
            byPreference[preference] = decision
        }
        decided = granted + declined
        decisions = RefundPreference.allCases.compactMap { byPreference[$0] }
    }

    /// run.json's `answering`: the names are the interface.
    package var json: JSONValue {
        func count(_ value: Int) -> JSONValue { .integer(Int64(value)) }
        func money(_ amount: Money) -> JSONValue { .number(amount.formatted(decimals: 6)) }
        return .object([
            ("requests", count(requests)),
            ("answered", count(answered)),
            ("answered_in_time", count(answeredInTime)),
            ("decided", count(decided)),
            ("decided_as_preferred", count(decidedAsPreferred)),
            (
                "by_preference_sent",
                .object(
                    decisions.map { decision in
                        (
                            decision.preference.rawValue,
                            .object([
                                ("granted", count(decision.granted)), ("declined", count(decision.declined)),
                                ("pending", count(decision.pending)),
                            ])
                        )
                    })
            ),
            ("declined", count(declined)),
            ("price_kept", money(priceKept)),
            ("granted", count(granted)),
            ("price_refunded", money(priceRefunded)),
            ("delivery_cost_refunded", money(deliveryCostRefunded)),
            ("price_unknown", count(priceUnknown)),
        ])
    }
}
