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
    /// The purchase's price in the report currency at its day (nil when the data does not
    /// give it, or no rates are at hand), and what Apple refunded of it, at the refund's day.
    package var price: Money?
    package var priceRefunded: Money?

    /// Requests signed in the window, in the order they were received.
    package static func all(
        ledger: Ledger, totals: AttributionTotals, credits: CreditLedger, draws: CreditDraws, evidence: ConsumptionEvidence,
        window: ReportWindow, policy: ConsumptionPolicy, rates: ExchangeRates? = nil
    ) -> [ConsumptionFigure] {
        let outcomes = RefundDecisions(ledger)
        let usage = UsageAtRequest(ledger: ledger, totals: totals, credits: credits, draws: draws)
        var figures: [ConsumptionFigure] = []
        for notification in ledger.notifications
        where notification.type == .consumptionRequest && window.contains(notification.signedDate) {
            var figure = figure(
                notification, ledger: ledger, totals: totals, usage: usage, outcomes: outcomes, evidence: evidence,
                window: window, policy: policy)
            if let rates, let index = figure.transactionIndex {
                (figure.price, figure.priceRefunded) = prices(ledger.transactions[index].record, figure, rates: rates)
            }
            figures.append(figure)
        }
        return figures.sorted { ($0.receivedAt, $0.notificationUUID) < ($1.receivedAt, $1.notificationUUID) }
    }

    private static func figure(
        _ notification: NotificationRecord, ledger: Ledger, totals: AttributionTotals, usage: UsageAtRequest,
        outcomes: RefundDecisions, evidence: ConsumptionEvidence, window: ReportWindow, policy: ConsumptionPolicy
    ) -> ConsumptionFigure {
        let id = notification.transaction?.transactionID
        let index = id.flatMap { ledger.index(of: $0) }
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
        let respondBy = ConsumptionDeadline.of(notification.signedDate)
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

    /// The price in the report currency, and what was refunded of it when Apple granted the
    /// refund (its share for a prorated refund), as refunds.csv converts them.
    private static func prices(_ record: TransactionRecord, _ figure: ConsumptionFigure, rates: ExchangeRates) -> (
        Money?, Money?
    ) {
        guard let milliunits = record.price, let code = record.currency.flatMap(CurrencyCode.init(validating:)),
            let full = try? Money(milliunits: milliunits)
        else { return (nil, nil) }
        let price = try? rates.reportAmount(full, from: code, onDay: record.purchaseDate.dayNumber)
        guard figure.outcome == .granted else { return (price, nil) }
        let share = EndKind.ofRefund(record) == .refundProrated ? Int64(record.revocationPercentage ?? 100_000) : 100_000
        let day = (record.revocationDate ?? figure.outcomeAt ?? record.purchaseDate).dayNumber
        let refunded = (try? full.scaled(by: share, over: 100_000)).flatMap {
            try? rates.reportAmount($0, from: code, onDay: day)
        }
        return (price, refunded)
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
