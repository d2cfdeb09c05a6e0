import Ingest
import Support

extension ScenarioBuilder {
    /// A renewal fails and Apple keeps the access for a billing grace period while it retries
    /// (docs/domain.md rule 13).
    ///
    /// Billing recovers inside the grace (a renewal bought then, the
    /// renewal date unmoved, the subscription going on) or it does not (the chain stops).
    mutating func failRenewal(_ household: inout AccessHousehold) {
        guard household.event == .billingGrace else { return }
        let chain = household.chain
        let candidates = chain.indices.filter { (chain[$0].expires ?? .max) < windowEnd - 2 * Self.day }
        guard let failing = candidates.isEmpty ? nil : candidates[Int(random.below(Int64(candidates.count)))],
            let expires = chain[failing].expires
        else { return }
        household.chain.removeSubrange((failing + 1)...)
        let end = expires + ScenarioWeights.graceDays * Self.day
        guard random.chance(ScenarioWeights.graceRecoveredPercent) else {
            count("billing_grace_unpaid")
            household.grace = (failing, end, nil)
            return
        }
        count("billing_grace_recovered")
        let recovered = expires + random.between(Self.hour, end - expires - Self.hour)
        household.grace = (failing, end, household.chain.count)
        var purchase = recovered
        var renewsAt = CivilDate.addingMonths(Timestamp(milliseconds: expires), household.kind == 0 ? 1 : 12).milliseconds
        while purchase < horizon {
            let template = household.chain[failing]
            household.chain.append(
                SyntheticTransaction(
                    id: newTransactionID(), originalID: template.originalID, productID: template.productID,
                    type: .autoRenewable, ownership: .purchased, purchase: purchase, expires: renewsAt, price: template.price,
                    currency: template.currency, token: template.token, webOrderLineItemID: newTransactionID(),
                    appTransactionID: template.appTransactionID, groupID: template.groupID))
            purchase = renewsAt
            renewsAt = CivilDate.addingMonths(Timestamp(milliseconds: renewsAt), household.kind == 0 ? 1 : 12).milliseconds
        }
    }

    /// DID_FAIL_TO_RENEW with the grace's end in the renewal info, for the purchaser and every
    /// member whose shared period expired with it; without recovery, GRACE_PERIOD_EXPIRED at the
    /// grace's end and EXPIRED once Apple stops retrying.
    mutating func notifyGrace(_ household: AccessHousehold) {
        guard let grace = household.grace, let expires = household.chain[grace.expired].expires else { return }
        var expiring = [household.chain[grace.expired]]
        for memberChain in household.memberChains {
            if let shared = memberChain.last(where: { $0.expires == expires }) { expiring.append(shared) }
        }
        for transaction in expiring {
            let failed = SyntheticRenewal(
                originalID: transaction.originalID, productID: transaction.productID, graceEnd: grace.end, inBillingRetry: true,
                signed: expires + random.between(1000, 60_000))
            notify(.didFailToRenew, .gracePeriod, at: failed.signed, transaction, renewal: failed)
            guard grace.recovery == nil else { continue }
            var over = failed
            over.signed = grace.end + random.between(1000, 60_000)
            notify(.gracePeriodExpired, nil, at: over.signed, transaction, renewal: over)
            var retryEnded = over
            retryEnded.graceEnd = nil
            retryEnded.inBillingRetry = false
            retryEnded.signed = grace.end + random.between(Self.day, 30 * Self.day)
            notify(.expired, .billingRetry, at: retryEnded.signed, transaction, renewal: retryEnded)
        }
    }
}
