import Support

/// What answering refund requests earned (`report --journal`): each answer `respond` sent,
/// joined to how Apple decided the refund after it, beside how Apple decided the requests that
/// got no answer.
///
/// Only a decision signed after the answer went out can owe anything to it; a decision before
/// it is counted apart. Without an answer Apple usually grants a refund, so a refund Apple
/// declined after an answer that preferred a decline kept the purchase's price for the
/// answer's sake; one it declined although the answer asked it to grant is kept too, but
/// against the answer's advice, and is not credited to it. Money is in the report currency:
/// prices at the purchase's day, refunds at the refund's day, as refunds.csv converts them.
package struct AnsweringFigure: Sendable, Hashable {
    package var requests = 0
    /// Requests whose answer Apple took (`sent`), and those of them sent within the 12 hours.
    package var answered = 0
    var answeredInTime = 0
    /// Answered requests by the preference sent and Apple's decision after the answer.
    package var decisions: [Decision] = []
    /// Answered requests Apple decided after the answer, and those it decided as the answer
    /// preferred (DECLINE declined; GRANT_FULL or GRANT_PRORATED granted).
    package var decided = 0
    package var decidedAsPreferred = 0
    /// Answered requests Apple had decided before the answer went: not counted above.
    package var decidedBeforeAnswer = 0
    /// Refunds Apple declined after an answer, and the price kept where the answer preferred a
    /// decline: what answering saved.
    package var declined = 0
    package var priceKept = Money.zero
    /// Refunds Apple declined after an answer that asked it to grant them, and their price.
    package var declinedAgainstAnswer = 0
    package var priceKeptAgainstAnswer = Money.zero
    /// Refunds Apple granted after an answer, the price refunded, and the delivery cost already
    /// spent on those purchases.
    package var granted = 0
    package var priceRefunded = Money.zero
    package var deliveryCostRefunded = Money.zero
    /// Decided requests whose price the data does not give (left out of the sums).
    package var priceUnknown = 0
    /// How Apple decided the requests that got no answer, of the reasons and months (of their
    /// signing) of the answered ones: what Apple does without an answer, to read the
    /// difference against.
    package var baseline = Baseline()

    package struct Decision: Sendable, Hashable {
        package var preference: RefundPreference
        package var granted = 0
        package var declined = 0
        package var pending = 0
        package var decidedBeforeAnswer = 0
    }

    package struct Baseline: Sendable, Hashable {
        package var requests = 0
        package var granted = 0
        package var declined = 0
        package var pending = 0
        package var decided: Int { granted + declined }
    }

    package init() {}

    /// The figure of `requests`, each with the journal's word attached.
    package init(_ requests: [ConsumptionFigure]) throws {
        self.requests = requests.count
        var byPreference: [RefundPreference: Decision] = [:]
        var answeredCells = Set<Cell>()
        for request in requests {
            guard let answered = request.answered, let preference = answered.sentPreference else { continue }
            answeredCells.insert(Cell(request))
            self.answered += 1
            if answered.inTime { answeredInTime += 1 }
            var decision = byPreference[preference] ?? Decision(preference: preference)
            switch request.decisionAfterAnswer {
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
                if preference == .decline { decidedAsPreferred += 1 }
                if let price = request.price {
                    if preference == .decline {
                        priceKept = try priceKept.adding(price)
                    } else {
                        priceKeptAgainstAnswer = try priceKeptAgainstAnswer.adding(price)
                    }
                } else {
                    priceUnknown += 1
                }
                if preference != .decline { declinedAgainstAnswer += 1 }
            case .decidedBefore:
                decision.decidedBeforeAnswer += 1
                decidedBeforeAnswer += 1
            case .pending, .noAnswer:
                decision.pending += 1
            }
            byPreference[preference] = decision
        }
        decided = granted + declined
        decisions = RefundPreference.allCases.compactMap { byPreference[$0] }
        for request in requests where request.answered?.sentPreference == nil && answeredCells.contains(Cell(request)) {
            baseline.requests += 1
            switch request.outcome {
            case .granted: baseline.granted += 1
            case .declined: baseline.declined += 1
            case .pending: baseline.pending += 1
            }
        }
    }

    /// A request's reason and the calendar month of its signing: requests are compared within these.
    private struct Cell: Hashable {
        var reason: String?
        var month: CivilMonth

        init(_ request: ConsumptionFigure) {
            reason = request.reason
            month = CivilMonth(request.signedAt)
        }
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
                                ("decided_before_answer", count(decision.decidedBeforeAnswer)),
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
            ("decided_before_answer", count(decidedBeforeAnswer)),
            ("declined_against_answer", count(declinedAgainstAnswer)),
            ("price_kept_against_answer", money(priceKeptAgainstAnswer)),
            (
                "unanswered_same_reasons_and_months",
                .object([
                    ("requests", count(baseline.requests)), ("granted", count(baseline.granted)),
                    ("declined", count(baseline.declined)), ("pending", count(baseline.pending)),
                ])
            ),
        ])
    }
}
