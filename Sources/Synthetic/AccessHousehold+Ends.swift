import Ingest
import Support

extension ScenarioBuilder {
    /// The refund, its consumption request, the members' REVOKEs, and a reversal.
    mutating func refund(_ household: inout AccessHousehold) {
        guard let index = household.refundIndex else { return }
        let prorated = household.event == .prorated
        let appIssue = random.chance(ScenarioWeights.appIssueRefundPercent)
        household.chain[index].revocationDate = household.refundAt
        household.chain[index].revocationReason = appIssue ? .appIssue : .other
        household.chain[index].revocationType = prorated ? .refundProrated : .refundFull
        household.chain[index].revocationPercentage = prorated ? random.between(10, 90) * 1000 : nil
        count(prorated ? "refund_prorated" : household.event == .reversal ? "refund_reversed" : "refund_full")
        if random.chance(ScenarioWeights.consumptionRequestOnRefundPercent) { requestRefund(household, index: index) }
        household.refundNotice = household.refundAt + random.between(2000, 60_000)
        notify(.refund, nil, at: household.refundNotice, household.chain[index])
        if !household.members.isEmpty { count("family_refund") }
        for memberIndex in household.members.indices { revokeMember(&household, memberIndex, refunded: household.chain[index]) }
        guard household.event == .reversal else { return }
        let at = household.refundAt + random.between(3 * Self.day, 10 * Self.day)
        var restored = household.chain[index]
        restored.revocationDate = nil
        restored.revocationReason = nil
        restored.revocationType = nil
        household.chain[index] = restored
        notify(.refundReversed, nil, at: at, restored)
        household.reversedAt = at
    }

    /// The customer asked Apple for the refund: a CONSUMPTION_REQUEST before it.
    private mutating func requestRefund(_ household: AccessHousehold, index: Int) {
        count("consumption_request_subscription")
        if random.chance(ScenarioWeights.consentOnRefundRequestPercent) {
            consentRows.append((household.purchaser, true, household.chain[index].purchase))
        }
        var copy = household.chain[index]
        copy.revocationDate = nil
        copy.revocationReason = nil
        copy.revocationType = nil
        copy.revocationPercentage = nil
        let at = household.refundAt - random.between(Self.hour, 2 * Self.day)
        let w = ScenarioWeights.refundRequestReason
        let reason: [ConsumptionReason] = [.unsatisfiedWithPurchase, .unintendedPurchase, .other]
        notify(.consumptionRequest, nil, at: at, copy, reason: reason[random.weighted([w.unsatisfied, w.unintended, w.other])])
    }

    /// A member's share of the refunded purchase ends minutes after the refund.
    private mutating func revokeMember(_ household: inout AccessHousehold, _ memberIndex: Int, refunded: SyntheticTransaction) {
        let refundAt = household.refundAt
        let memberChain = household.memberChains[memberIndex]
        guard
            let position = memberChain.lastIndex(where: { $0.purchase <= refundAt && $0.expires == refunded.expires })
                ?? memberChain.indices.last
        else { return }
        household.memberChains[memberIndex].removeSubrange((position + 1)...)
        household.memberChains[memberIndex][position].revocationDate = refundAt + random.between(0, 5 * Self.minute)
        household.memberChains[memberIndex][position].revocationReason = refunded.revocationReason
        household.memberChains[memberIndex][position].revocationType = .familyRevoke
        household.memberNotice[memberIndex] = refundAt + random.between(Self.minute, 10 * Self.minute)
        notify(.revoke, nil, at: household.memberNotice[memberIndex], household.memberChains[memberIndex][position])
    }

    /// A subscription that stopped renewing expires, for the purchaser and the members.
    mutating func expire(_ household: inout AccessHousehold) {
        household.expired = household.chain.last?.expires.map { $0 < windowEnd } ?? false
        // A grace that was never paid ends with GRACE_PERIOD_EXPIRED and EXPIRED (BILLING_RETRY) instead.
        guard household.expired, let last = household.chain.last, !household.isRefunded, let expires = last.expires,
            household.grace == nil
        else { return }
        count("expiry")
        notify(.expired, .voluntary, at: expires + random.between(1000, 60_000), last)
        for memberChain in household.memberChains {
            guard let memberLast = memberChain.last, memberLast.expires == expires else { continue }
            notify(.expired, .voluntary, at: expires + random.between(1000, 60_000), memberLast)
        }
    }

    /// How long the server served the purchaser: cut off after a refund (or not), a little
    /// past an expiry, again after a reversal.
    mutating func servePurchaser(_ household: inout AccessHousehold) {
        household.serverRevokesMembers = random.chance(ScenarioWeights.serverRevokesMembersPercent)
        var end = windowEnd
        let lastExpiry = household.chain.last?.expires
        if household.isRefunded {
            if random.chance(ScenarioWeights.serverCutsPurchaserPercent) {
                end = household.refundNotice + random.between(0, 50 * Self.minute)
            } else {
                count("server_leak_purchaser")
                end = household.refundNotice + random.between(3 * Self.hour, 10 * Self.day)
            }
        } else if household.expired, let lastExpiry {
            // A grace that was never paid keeps the access until it ends.
            let accessEnd = household.grace.map { $0.recovery == nil ? $0.end : lastExpiry } ?? lastExpiry
            let late = random.chance(ScenarioWeights.servedAfterExpiryPercent)
            end = accessEnd + (late ? random.between(Self.day, 5 * Self.day) : 0)
            if end > accessEnd { count("served_after_expiry") }
        }
        household.purchaserEnd = end
        let start = household.tap + random.between(0, 10 * Self.minute)
        household.spans[household.purchaser, default: []].append(ServedSpan(from: start, to: end))
        if let reversedAt = household.reversedAt, household.isRefunded {
            let again = reversedAt + random.between(Self.minute, Self.hour)
            household.spans[household.purchaser, default: []].append(ServedSpan(from: again, to: windowEnd))
        }
    }

    /// How long the server served each member: from a premature grant or their own, until
    /// the server revoked them (or never did), a second purchase kept them, or they left.
    mutating func serveMembers(_ household: inout AccessHousehold) {
        let serverRevokesMembers = household.serverRevokesMembers
        for (memberIndex, member) in household.members.enumerated() {
            guard let first = household.memberChains[memberIndex].first else { continue }
            var start = first.purchase + random.between(Self.minute, 20 * Self.minute)
            if random.chance(ScenarioWeights.prematureGrantPercent) {
                count("premature_grant")
                start = household.tap + random.between(5 * Self.minute, 55 * Self.minute)
            }
            var end = household.purchaserEnd
            if household.isRefunded && household.event != .reversal {
                end = memberEndAfterRefund(household, memberIndex, member: member, first: first, revokes: serverRevokesMembers)
            }
            if let exit = household.exit, exit.member == memberIndex {
                if random.chance(ScenarioWeights.serverLeaksExitPercent) {
                    count("server_leak_exit")
                    end = exit.at + random.between(2 * Self.hour, 30 * Self.day)
                } else {
                    end = exit.at + random.between(0, 30 * Self.minute)
                }
            }
            household.spans[member, default: []].append(ServedSpan(from: start, to: end))
        }
    }

    private mutating func memberEndAfterRefund(
        _ household: AccessHousehold, _ memberIndex: Int, member: String, first: SyntheticTransaction, revokes: Bool
    ) -> Int64 {
        if random.chance(ScenarioWeights.secondValidTransactionPercent) {
            // This member also bought the product: a second valid transaction keeps them entitled.
            count("second_valid_transaction")
            let own = newTransactionID()
            let purchase = first.purchase - random.between(Self.day, 30 * Self.day)
            ownPurchase(
                SyntheticTransaction(
                    id: own, originalID: own, productID: SyntheticCatalog.lifetime, type: .nonConsumable, ownership: .purchased,
                    purchase: purchase, expires: nil, price: SyntheticCatalog.price(SyntheticCatalog.lifetime),
                    currency: household.currency, token: nil, webOrderLineItemID: nil, appTransactionID: "app-" + member),
                account: member, token: "")
            return windowEnd
        }
        if revokes { return household.memberNotice[memberIndex] + random.between(0, 50 * Self.minute) }
        count("server_leak_member")
        if random.chance(ScenarioWeights.memberServedToWindowEndPercent) { return windowEnd }
        return household.memberNotice[memberIndex] + random.between(Self.day, 40 * Self.day)
    }

    /// The ledger side: every transaction, and how accounts.csv links them.
    mutating func record(_ household: AccessHousehold) {
        transactions.append(contentsOf: household.chain)
        if random.chance(ScenarioWeights.linkedByTokenPercent) {
            count("linked_by_token")
            accountRows.append((household.purchaser, "", household.token))
        } else {
            accountRows.append((household.purchaser, household.original, household.token))
        }
        for (memberIndex, member) in household.members.enumerated() {
            guard let first = household.memberChains[memberIndex].first else { continue }
            transactions.append(contentsOf: household.memberChains[memberIndex])
            accountRows.append((member, first.originalID, ""))
        }
    }
}
