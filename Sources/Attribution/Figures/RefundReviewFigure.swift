import Ingest
import Ledger
import Support

/// One row of `refund_reviews.csv`: a Google Play pending refund review notified in the window
/// (a chargeback Google asked the app about), what `respond --store play` did about it, and
/// whether Google voided the order since.
///
/// Google says nothing when it wins a dispute: an order it has not voided since the review is
/// `not_voided` as of the as-of time, never "declined".
package struct RefundReviewFigure: Sendable {
    package var order: TransactionFacts
    package var transactionIndex: Int
    /// The review's `pendingRefundToken`: the journal's key for it.
    package var token: String
    package var notifiedAt: Timestamp
    /// 24 hours after the notification.
    package var respondBy: Timestamp
    package var pastRespondBy: Bool
    /// The first void of the order at or after the review, as of the as-of time.
    package var voided: PlayVoidedPurchase?
    /// The order's total in the report currency at the notification's day; nil without one.
    package var price: Money?
    /// What the void took back of the total (its units' share), in the report currency at its day.
    package var priceVoided: Money?
    /// With `report --play-journal`: what respond did about the review.
    package var answered: PlayReviewAnswered?

    /// `APPROVE` and a void after the answer, or `DECLINE` and a void after it: Google decided as
    /// the answer preferred (true) or not (false); nil with no void after the answer, no answer,
    /// or a `NEUTRAL` one.
    package var decidedAsPreferred: Bool? {
        guard let answered, let sentAt = answered.sentAt, let voided, voided.voidedTime > sentAt else { return nil }
        switch answered.sentPreference {
        case "APPROVE": return true
        case "DECLINE": return false
        default: return nil
        }
    }

    /// Answered late or not at all on respond's watch: a person must look; nil without a journal.
    ///
    /// A review whose 24 hours ended before the journal began was never respond's to answer.
    package var needsAttention: Bool? {
        guard let answered else { return nil }
        switch answered.state {
        case "refused", "failed", "sending": return true
        case "sent": return !answered.inTime
        case "missed", "none": return !answered.beforeJournal && (answered.state == "missed" || pastRespondBy)
        default: return false
        }
    }

    /// The reviews notified inside the window, by notification time then order id.
    static func all(
        ledger: Ledger, window: ReportWindow, rates: ExchangeRates, journal: [String: JournalEntry]?, journalBegins: Timestamp?
    ) throws -> [RefundReviewFigure] {
        var figures: [RefundReviewFigure] = []
        for (index, held) in ledger.playOrders {
            let access = PlayOrderAccess(held)
            for review in held.reviews where window.contains(review.notifiedAt) {
                let voided = held.voids.first { $0.voidedTime >= review.notifiedAt }
                let total = held.order.total
                let price = try total.map {
                    try rates.reportAmount($0.money, from: $0.currency, onDay: review.notifiedAt.dayNumber)
                }
                let priceVoided = try voided.flatMap { void in
                    try access.paid(units: void.voidedQuantity ?? access.quantity).map {
                        try rates.reportAmount($0.money, from: $0.currency, onDay: void.voidedTime.dayNumber)
                    }
                }
                let respondBy = AnswerWindow.play.deadline(of: review.notifiedAt)
                figures.append(
                    RefundReviewFigure(
                        order: TransactionFacts(ledger, transaction: index), transactionIndex: index, token: review.token,
                        notifiedAt: review.notifiedAt, respondBy: respondBy, pastRespondBy: ledger.options.asOf >= respondBy,
                        voided: voided, price: price, priceVoided: priceVoided,
                        answered: journal.map {
                            PlayReviewAnswered($0[review.token], respondBy: respondBy, journalBegins: journalBegins)
                        }))
            }
        }
        return figures.sorted {
            $0.notifiedAt != $1.notifiedAt
                ? $0.notifiedAt < $1.notifiedAt : TransactionID.precedes($0.order.id, $1.order.id)
        }
    }
}

/// What the journal of `respond --store play` says about one review.
package struct PlayReviewAnswered: Sendable, Hashable {
    /// The last event's state (`sent`, `refused`, `failed`, `skipped`, `missed`, `sending`), or
    /// `none` when the journal never named the review.
    package var state: String
    /// When the answer Google took went out.
    package var sentAt: Timestamp?
    /// Sent within the 24 hours.
    package var inTime: Bool
    /// The `refundPreference` sent: `DECLINE`, `APPROVE` or `NEUTRAL`.
    package var sentPreference: String?
    /// The review's 24 hours ended before the journal began: never respond's to answer.
    package var beforeJournal = false

    init(_ entry: JournalEntry?, respondBy: Timestamp, journalBegins: Timestamp?) {
        state = entry?.state.rawValue ?? "none"
        sentAt = entry?.sentAt
        inTime = entry?.sentAt.map { $0 <= respondBy } ?? false
        sentPreference = entry?.sentPreferenceName
        beforeJournal = entry == nil && (journalBegins.map { respondBy <= $0 } ?? false)
        if beforeJournal { state = "missed" }
    }
}

/// What answering Google's refund reviews earned, over the window's reviews (run.json's
/// `play_answering`, with `report --play-journal`).
///
/// Google voids the order when it grants the chargeback and says nothing when it wins the
/// dispute, so an answered review is `voided` after the answer or `not_voided` as of the as-of time.
package struct PlayAnsweringFigure: Sendable {
    package var reviews = 0
    package var answered = 0
    package var answeredInTime = 0
    package var voidedAfterAnswer = 0
    package var notVoided = 0
    /// What the voids after an answer took back, and the prices of answered orders not voided.
    package var priceVoided = Money.zero
    package var priceNotVoided = Money.zero
    /// For each preference sent (`APPROVE`, `DECLINE`, `NEUTRAL`): voided after the answer, and not.
    package var byPreference: [(preference: String, voided: Int, notVoided: Int)] = []

    package init(_ reviews: [RefundReviewFigure]) throws {
        self.reviews = reviews.count
        var byPreference: [String: (voided: Int, notVoided: Int)] = [:]
        for review in reviews {
            guard let answered = review.answered, let sentAt = answered.sentAt else { continue }
            self.answered += 1
            if answered.inTime { answeredInTime += 1 }
            let preference = answered.sentPreference ?? ""
            if let voided = review.voided, voided.voidedTime > sentAt {
                voidedAfterAnswer += 1
                priceVoided = try priceVoided.adding(review.priceVoided ?? .zero)
                byPreference[preference, default: (0, 0)].voided += 1
            } else if review.voided == nil {
                notVoided += 1
                priceNotVoided = try priceNotVoided.adding(review.price ?? .zero)
                byPreference[preference, default: (0, 0)].notVoided += 1
            }
        }
        self.byPreference = ["APPROVE", "DECLINE", "NEUTRAL"].map {
            ($0, byPreference[$0]?.voided ?? 0, byPreference[$0]?.notVoided ?? 0)
        }
    }

    /// run.json's `play_answering`: the names are the interface.
    package var json: JSONValue {
        func count(_ value: Int) -> JSONValue { .integer(Int64(value)) }
        return .object([
            ("reviews", count(reviews)), ("answered", count(answered)), ("answered_in_time", count(answeredInTime)),
            ("voided_after_answer", count(voidedAfterAnswer)), ("not_voided", count(notVoided)),
            ("price_voided", .number(priceVoided.formatted(decimals: 6))),
            ("price_not_voided", .number(priceNotVoided.formatted(decimals: 6))),
            (
                "by_preference_sent",
                .object(
                    byPreference.map {
                        ($0.preference, .object([("voided", count($0.voided)), ("not_voided", count($0.notVoided))]))
                    })
            ),
        ])
    }
}
