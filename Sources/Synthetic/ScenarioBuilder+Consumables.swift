import Ingest
import Support

extension ScenarioBuilder {
    /// A buyer of one to three credit packs; some ask Apple for a refund through a
    /// consumption request, which is granted, declined or still pending.
    mutating func consumableHousehold() -> [(String, [ServedSpan])] {
        let account = newAccount()
        let token = uuid()
        count("consumable_buyer")
        var spans: [ServedSpan] = []
        var firstOriginal = ""
        for _ in 0..<Int(random.between(1, 3)) {
            let id = newTransactionID()
            if firstOriginal.isEmpty { firstOriginal = id }
            let quantity = random.between(1, 2)
            let earliest = windowStart - 20 * Self.day
            let purchase = earliest + random.below(windowEnd - 5 * Self.day - earliest)
            var pack = SyntheticTransaction(
                id: id, originalID: id, productID: SyntheticCatalog.credits, type: .consumable, ownership: .purchased,
                purchase: purchase, expires: nil, price: SyntheticCatalog.price(SyntheticCatalog.credits) * quantity,
                currency: "USD", quantity: quantity, token: token, webOrderLineItemID: nil, appTransactionID: "app-" + account)
            notify(.oneTimeCharge, nil, at: purchase + random.between(1000, 5000), pack)
            let from = purchase + random.between(60_000, Self.hour)
            spans.append(ServedSpan(from: from, to: purchase + random.between(3 * Self.day, 25 * Self.day), credits: true))
            if random.chance(ScenarioWeights.consumptionRequestOnPackPercent) { requestPackRefund(&pack) }
            transactions.append(pack)
        }
        accountRows.append((account, firstOriginal, token))
        if random.chance(ScenarioWeights.consentedBuyerPercent) {
            count("consented_to_share_consumption")
            consentRows.append((account, true, windowStart - 60 * Self.day))
        }
        return [(account, spans)]
    }

    /// A consumption request for a pack, what the app recorded about its delivery, and how
    /// Apple decided.
    private mutating func requestPackRefund(_ pack: inout SyntheticTransaction) {
        count("consumption_request")
        let requested = pack.purchase + random.between(Self.day, 10 * Self.day)
        let w = ScenarioWeights.packRequestReason
        let reasons: [ConsumptionReason] = [.unintendedPurchase, .fulfillmentIssue, .unsatisfiedWithPurchase, .legal, .other]
        let reason = reasons[random.weighted([w.unintended, w.fulfillment, w.unsatisfied, w.legal, w.other])]
        notify(.consumptionRequest, nil, at: requested, pack, reason: reason)
        if reason == .fulfillmentIssue && random.chance(ScenarioWeights.undeliveredOnFulfillmentPercent) {
            count("undelivered_pack")
            deliveryRows.append((pack.id, .undeliveredServerOutage, pack.purchase + 5 * 60_000))
        } else if random.chance(ScenarioWeights.deliveryRecordedPercent) {
            deliveryRows.append((pack.id, .delivered, pack.purchase + 60_000))
        }
        let outcome = ScenarioWeights.packRequestOutcome
        switch random.weighted([outcome.granted, outcome.declined, outcome.pending]) {
        case 0:
            count("consumption_refund_granted")
            let revoked = requested + random.between(Self.day, 5 * Self.day)
            pack.revocationDate = revoked
            pack.revocationReason = .other
            pack.revocationType = .refundFull
            notify(.refund, nil, at: revoked + random.between(2000, 60_000), pack)
        case 1:
            count("consumption_refund_declined")
            notify(.refundDeclined, nil, at: requested + random.between(Self.day, 5 * Self.day), pack)
        default:
            count("consumption_pending")
        }
    }
}
