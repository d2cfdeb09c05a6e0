import Ingest
import Ledger
import Support

/// One `CONSUMPTION_REQUEST` of the window, the answer the evidence supports, and how the
/// request ended.
package struct ConsumptionFigure: Sendable {
    package var notificationUUID: String
    package var transactionID: String?
    package var productID: String?
    /// Ledger order of the transaction, when the ledger knows it.
    package var transactionIndex: Int?
    package var account: String?
    /// The customer's reason as Apple sent it.
    package var reason: String?
    package var receivedAt: Timestamp
    /// When Apple signed the request: Apple's 12 hours count from here.
    package var signedAt: Timestamp
    package var respondBy: Timestamp
    package var pastRespondBy: Bool
    package var consented: Bool
    package var delivery: DeliveryStatus
    /// Milliunits; nil for an auto-renewable subscription (Apple works it out itself).
    package var consumptionPercentage: Int64?
    package var preference: RefundPreference
    package var basis: String
    package var outcome: ConsumptionOutcome
    package var outcomeAt: Timestamp?
    package var deliveredCost: Money
    /// The customer tried the product first: a free trial or an introductory offer for it
    /// before the purchase, or a product products.csv marks `sample_content`.
    package var sampleContentProvided = false
    /// What the journal of `respond` says, with `report --journal`.
    package var answered: ConsumptionAnswered?

    /// Apple wants an answer within 12 hours of the request.
    static let answerWindow = TimeSpan.hours(12)

    /// Requests signed in the window, in the order they were received.
    package static func all(
        ledger: Ledger, totals: AttributionTotals, credits: CreditLedger, draws: CreditDraws, evidence: ConsumptionEvidence,
        window: ReportWindow, policy: ConsumptionPolicy
    ) -> [ConsumptionFigure] {
        let outcomes = RefundDecisions(ledger)
        let usage = UsageAtRequest(ledger: ledger, totals: totals, credits: credits, draws: draws)
        var figures: [ConsumptionFigure] = []
        for notification in ledger.notifications
        where notification.type == .consumptionRequest && window.contains(notification.signedDate) {
            figures.append(
                figure(
                    notification, ledger: ledger, totals: totals, usage: usage, outcomes: outcomes, evidence: evidence,
                    window: window, policy: policy))
        }
        return figures.sorted { ($0.receivedAt, $0.notificationUUID) < ($1.receivedAt, $1.notificationUUID) }
    }

    private static func figure(
        _ notification: NotificationRecord, ledger: Ledger, totals: AttributionTotals, usage: UsageAtRequest,
        outcomes: RefundDecisions, evidence: ConsumptionEvidence, window: ReportWindow, policy: ConsumptionPolicy
    ) -> ConsumptionFigure {
        let id = notification.transaction?.transactionID
        let index = id.flatMap { ledger.transactionIndex[$0] }
        let transaction = index.map { ledger.transactions[$0] }
        let account = transaction?.account.map { ledger.accounts[$0] }
        let received = notification.noticeTime
        let delivery = id.flatMap { evidence.delivery(transaction: $0, at: received) } ?? .delivered
        var used = index.map { usage.used($0, at: received) } ?? Usage.none
        if delivery != .delivered { used.share = 0 }
        let (preference, basis) = ConsumptionAnswer.preference(
            reason: notification.rawConsumptionRequestReason, delivery: delivery, used: used.share, usedText: used.text,
            policy: policy)
        let (outcome, outcomeAt) = outcomes.outcome(of: notification, transaction: transaction)
        // Apple's 12 hours run from its signing of the request (rule 11), not from its arrival.
        let respondBy = notification.signedDate.adding(answerWindow)
        return ConsumptionFigure(
            notificationUUID: notification.uuid, transactionID: id,
            productID: transaction?.productID ?? notification.transaction?.productID, transactionIndex: index,
            account: account, reason: notification.rawConsumptionRequestReason, receivedAt: received,
            signedAt: notification.signedDate, respondBy: respondBy,
            pastRespondBy: ledger.options.asOf > respondBy,
            consented: account.map { evidence.consented(account: $0, at: received) } ?? false, delivery: delivery,
            consumptionPercentage: used.sentAsPercentage ? used.share : nil, preference: preference, basis: basis,
            outcome: outcome, outcomeAt: outcomeAt, deliveredCost: index.map { totals.tiedByTransaction[$0] } ?? .zero,
            sampleContentProvided: index.map { sampled(before: $0, ledger: ledger) } ?? false)
    }

    /// A free trial or an introductory offer of the same product (or subscription) on or
    /// before the purchase, by the same account; or a product marked `sample_content`.
    private static func sampled(before index: Int, ledger: Ledger) -> Bool {
        let transaction = ledger.transactions[index]
        if ledger.products[transaction.productID]?.sampleContent == true { return true }
        let purchase = transaction.grantStart
        let held = transaction.account.map { ledger.transactionsByAccount[$0] } ?? [index]
        return held.contains { other in
            let record = ledger.transactions[other].box.record
            let sameProduct =
                record.productID == transaction.productID || record.originalTransactionID == transaction.originalTransactionID
            return sameProduct && record.sampledFirst && record.purchaseDate <= purchase
        }
    }

    /// The exact body of Apple's Send Consumption Information request.
    package var requestBody: JSONValue {
        var members: [(String, JSONValue)] = [("customerConsented", .bool(consented))]
        if let consumptionPercentage { members.append(("consumptionPercentage", .integer(consumptionPercentage))) }
        members.append(("deliveryStatus", .string(delivery.rawValue)))
        members.append(("refundPreference", .string(preference.rawValue)))
        members.append(("sampleContentProvided", .bool(sampleContentProvided)))
        return .object(members)
    }
}

/// How much of a purchase was used when its refund was requested, in milliunits, and in words.
struct Usage {
    var share: Int64
    var text: String
    /// Auto-renewables never send a percentage: Apple works it out itself.
    var sentAsPercentage: Bool

    static let none = Usage(share: 0, text: "no cost served on it", sentAsPercentage: true)
}

/// Works out use at the time of a request: credits drawn for a pack, the elapsed share of the
/// period for a subscription, whether anything was served for the rest.
struct UsageAtRequest {
    let ledger: Ledger
    let totals: AttributionTotals
    let credits: CreditLedger
    let draws: CreditDraws

    func used(_ index: Int, at received: Timestamp) -> Usage {
        let transaction = ledger.transactions[index]
        let servedBefore = totals.firstTiedAt[index] <= received.milliseconds
        switch transaction.type {
        case .consumable:
            if let granted = credits.credits(ofTransaction: index, ledger: ledger), granted > 0 {
                let drawn = draws.drawn(fromTransaction: index, through: received)
                let share = min(100_000, Int64(Int128(drawn) * 100_000 / Int128(granted * Money.nanosPerUnit)))
                return Usage(
                    share: share, text: "\(drawn / Money.nanosPerUnit) of \(granted) credits used", sentAsPercentage: true)
            }
            return servedBefore
                ? Usage(share: 100_000, text: "cost served on it (no credits in products.csv)", sentAsPercentage: true) : .none
        case .autoRenewable:
            guard servedBefore, let expires = transaction.record.expiresDate else {
                return Usage(share: 0, text: Usage.none.text, sentAsPercentage: false)
            }
            let length = max(1, expires.milliseconds - transaction.grantStart.milliseconds)
            let elapsed = max(0, min(length, received.milliseconds - transaction.grantStart.milliseconds))
            let share = Int64(Int128(elapsed) * 100_000 / Int128(length))
            return Usage(
                share: share, text: "used, \(ConsumptionAnswer.percent(share)) of the period elapsed", sentAsPercentage: false)
        default:
            return servedBefore ? Usage(share: 100_000, text: "used (cost served on it)", sentAsPercentage: true) : .none
        }
    }
}

/// REFUND and REFUND_DECLINED notifications by transaction: how each request ended.
struct RefundDecisions {
    private var byTransaction: [String: [NotificationRecord]] = [:]

    init(_ ledger: Ledger) {
        for notification in ledger.notifications where notification.type == .refund || notification.type == .refundDeclined {
            if let id = notification.transaction?.transactionID { byTransaction[id, default: []].append(notification) }
        }
    }

    /// A later REFUND (or a revocation) grants; a later REFUND_DECLINED declines; else pending.
    func outcome(of request: NotificationRecord, transaction: LedgerTransaction?) -> (ConsumptionOutcome, Timestamp?) {
        var outcome = ConsumptionOutcome.pending
        var outcomeAt: Timestamp?
        let later = request.transaction.flatMap { byTransaction[$0.transactionID] } ?? []
        for decision in later where decision.signedDate >= request.signedDate {
            if decision.type == .refund && (outcomeAt.map { decision.signedDate < $0 } ?? true) {
                outcome = .granted
                outcomeAt = decision.signedDate
            } else if decision.type == .refundDeclined && outcome == .pending {
                outcome = .declined
                outcomeAt = decision.signedDate
            }
        }
        if outcome != .granted, let record = transaction?.record, let revoked = record.revocationDate,
            revoked >= request.signedDate, !record.isUpgraded
        {
            return (.granted, revoked)
        }
        return (outcome, outcomeAt)
    }
}
