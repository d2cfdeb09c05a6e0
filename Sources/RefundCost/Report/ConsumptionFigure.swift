/// One `CONSUMPTION_REQUEST` of the window, the answer the evidence supports, and how the
/// request ended.
package struct ConsumptionFigure: Sendable {
    package var notification: NotificationRecord
    package var transaction: Int?
    package var account: String?
    package var receivedAt: Timestamp
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

    static let answerWindow = TimeSpan.hours(12)

    /// Requests signed in the window, in the order they were received.
    static func all(
        ledger: Ledger, totals: AttributionTotals, draws: CreditDraws, evidence: ConsumptionEvidence, window: ReportWindow,
        policy: ConsumptionPolicy
    ) -> [ConsumptionFigure] {
        let credits = CreditLedger(ledger: ledger)
        // REFUND and REFUND_DECLINED by transaction, to find each request's outcome.
        var decisions: [String: [NotificationRecord]] = [:]
        for notification in ledger.notifications where notification.type == .refund || notification.type == .refundDeclined {
            if let id = notification.transaction?.transactionID { decisions[id, default: []].append(notification) }
        }
        var figures: [ConsumptionFigure] = []
        for notification in ledger.notifications where notification.type == .consumptionRequest && window.contains(notification.signedDate) {
            let id = notification.transaction?.transactionID
            let index = id.flatMap { ledger.transactionIndex[$0] }
            let transaction = index.map { ledger.transactions[$0] }
            let account = transaction?.account.map { ledger.accounts[$0] }
            let received = notification.noticeTime
            let respondBy = received.adding(answerWindow)
            let delivery = id.flatMap { evidence.delivery(transaction: $0, at: received) } ?? .delivered
            let consented = account.map { evidence.consented(account: $0, at: received) } ?? false

            // How much was used by the time of the request.
            var used: Int64 = 0
            var usedText = "no cost served on it"
            var percentage: Int64? = 0
            if let index, let transaction {
                let servedBefore = totals.firstTiedAt[index] <= received.milliseconds
                switch transaction.type {
                case .consumable:
                    if let granted = credits.credits(ofTransaction: index, ledger: ledger), granted > 0 {
                        let drawn = draws.drawn(fromTransaction: index, through: received)
                        used = min(100_000, drawn * 100_000 / (granted * Money.nanosPerUnit))
                        usedText = "\(drawn / Money.nanosPerUnit) of \(granted) credits used"
                    } else {
                        used = servedBefore ? 100_000 : 0
                        usedText = servedBefore ? "cost served on it (no credits in products.csv)" : usedText
                    }
                case .autoRenewable:
                    percentage = nil
                    if servedBefore, let expires = transaction.record.expiresDate {
                        let length = max(1, expires.milliseconds - transaction.grantStart.milliseconds)
                        let elapsed = max(0, min(length, received.milliseconds - transaction.grantStart.milliseconds))
                        used = elapsed * 100_000 / length
                        usedText = "used, \(ConsumptionAnswer.percent(used)) of the period elapsed"
                    }
                default:
                    used = servedBefore ? 100_000 : 0
                    if servedBefore { usedText = "used (cost served on it)" }
                }
            }
            if delivery != .delivered { used = 0 }
            if percentage != nil { percentage = used }
            let (preference, basis) = ConsumptionAnswer.preference(
                reason: notification.consumptionRequestReason, delivery: delivery, used: used, usedText: usedText, policy: policy)

            // The outcome: a later REFUND (or a revocation), or a REFUND_DECLINED.
            var outcome = ConsumptionOutcome.pending
            var outcomeAt: Timestamp?
            for later in id.flatMap({ decisions[$0] }) ?? [] where later.signedDate >= notification.signedDate {
                if later.type == .refund && (outcomeAt.map { later.signedDate < $0 } ?? true) {
                    outcome = .granted
                    outcomeAt = later.signedDate
                } else if later.type == .refundDeclined && outcome == .pending {
                    outcome = .declined
                    outcomeAt = later.signedDate
                }
            }
            if outcome != .granted, let revoked = transaction?.record.revocationDate, revoked >= notification.signedDate,
                transaction?.record.isUpgraded == false
            {
                outcome = .granted
                outcomeAt = revoked
            }
            figures.append(ConsumptionFigure(
                notification: notification, transaction: index, account: account, receivedAt: received, respondBy: respondBy,
                pastRespondBy: window.asOf > respondBy, consented: consented, delivery: delivery, consumptionPercentage: percentage,
                preference: preference, basis: basis, outcome: outcome, outcomeAt: outcomeAt,
                deliveredCost: index.map { totals.tiedByTransaction[$0] } ?? .zero))
        }
        return figures.sorted { ($0.receivedAt, $0.notification.uuid) < ($1.receivedAt, $1.notification.uuid) }
    }

    /// The exact body of Apple's Send Consumption Information request.
    package var requestBody: JSONValue {
        var members: [(String, JSONValue)] = [("customerConsented", .bool(consented))]
        if let consumptionPercentage { members.append(("consumptionPercentage", .integer(consumptionPercentage))) }
        members.append(("deliveryStatus", .string(delivery.rawValue)))
        members.append(("refundPreference", .string(preference.rawValue)))
        members.append(("sampleContentProvided", .bool(false)))
        return .object(members)
    }
}
