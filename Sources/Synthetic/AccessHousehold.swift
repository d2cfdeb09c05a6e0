import Ingest
import Support

/// One purchase of access (a subscription or a lifetime unlock) and the family sharing it, as
/// the generator builds it step by step.
struct AccessHousehold {
    /// What happens to the purchase.
    enum Event: CaseIterable {
        case none, refund, prorated, reversal, exit, upgrade, autoRenewOff, billingGrace
    }

    var purchaser: String
    var members: [String]
    var token: String
    /// 0 monthly, 1 yearly, 2 lifetime.
    var kind: Int
    var product: String
    var currency: String
    /// When the purchaser tapped Buy.
    var tap: Int64
    var event = Event.none
    var original = ""
    /// The purchaser's transactions: one, or a subscription renewing until it stops.
    var chain: [SyntheticTransaction] = []
    /// Each member's FAMILY_SHARED transactions.
    var memberChains: [[SyntheticTransaction]] = []
    var refundIndex: Int?
    var refundAt: Int64 = 0
    var refundNotice: Int64 = 0
    var memberNotice: [Int64] = []
    var reversedAt: Int64?
    var upgradeAt: Int64?
    var exit: (member: Int, at: Int64, dated: Bool)?
    var expired = false
    /// When the server stopped serving the purchaser.
    var purchaserEnd: Int64 = 0
    /// Whether the app's server cuts members off when the purchase is refunded.
    var serverRevokesMembers = false
    /// A renewal that failed with billing grace: the period that expired, when the grace
    /// ends, and the renewal that recovered billing inside it, if any.
    var grace: (expired: Int, end: Int64, recovery: Int?)?
    var spans: [String: [ServedSpan]] = [:]

    var isSubscription: Bool { kind < 2 }
    var isRefunded: Bool { refundIndex != nil }
}

extension ScenarioBuilder {
    /// A purchase of access, shared with a family or not, what happened to it, and how the
    /// app's server served each account.
    ///
    /// Each step draws from the one random sequence, in this order, so a seed always gives the same
    /// dataset.
    mutating func accessHousehold(maxAccounts: Int) -> [(String, [ServedSpan])] {
        var household = startHousehold(maxAccounts: maxAccounts)
        chooseEvent(&household)
        buildChain(&household)
        failRenewal(&household)
        chooseRefund(&household)
        upgrade(&household)
        notifyPurchases(household)
        buildMemberChains(&household)
        memberExit(&household)
        notifyMembers(&household)
        notifyGrace(household)
        refund(&household)
        expire(&household)
        servePurchaser(&household)
        serveMembers(&household)
        record(household)
        return ([household.purchaser] + household.members).map { ($0, household.spans[$0] ?? []) }
    }

    private mutating func startHousehold(maxAccounts: Int) -> AccessHousehold {
        let purchaser = newAccount()
        let token = uuid()
        let weights = ScenarioWeights.product
        let kind = random.weighted([weights.monthly, weights.yearly, weights.lifetime])
        let product = [SyntheticCatalog.monthly, SyntheticCatalog.yearly, SyntheticCatalog.lifetime][kind]
        let familySize = min(maxAccounts - 1, random.weighted(ScenarioWeights.familyMembers))
        let members = (0..<max(0, familySize)).map { _ in newAccount() }
        if !members.isEmpty { count("family_\(members.count)_members") }
        let currency = random.chance(ScenarioWeights.euroPercent) ? "EUR" : "USD"
        let earliest = windowStart - 45 * Self.day
        let tap = earliest + random.below(windowEnd - 3 * Self.day - earliest)
        var household = AccessHousehold(
            purchaser: purchaser, members: members, token: token, kind: kind, product: product, currency: currency, tap: tap)
        household.spans[purchaser] = []
        if random.chance(ScenarioWeights.freeUseBeforePurchasePercent) {
            count("free_use_before_purchase")
            let from = tap - random.between(3 * Self.hour, 10 * Self.day)
            let to = tap - random.between(2 * Self.hour + Self.minute, 3 * Self.hour)
            household.spans[purchaser, default: []].append(ServedSpan(from: from, to: to))
        }
        return household
    }

    /// Picks what happens, falling back to nothing where the event cannot happen to this purchase.
    private mutating func chooseEvent(_ household: inout AccessHousehold) {
        let w = ScenarioWeights.event
        var event = AccessHousehold.Event.allCases[
            random.weighted([w.none, w.refund, w.prorated, w.reversal, w.exit, w.upgrade, w.autoRenewOff, w.billingGrace])]
        let family = !household.members.isEmpty
        if event == .reversal && family { event = .refund }
        if event == .upgrade && (household.kind != 0 || family) { event = .none }
        if event == .exit && !family { event = .none }
        if (event == .autoRenewOff || event == .billingGrace) && !household.isSubscription { event = .none }
        household.event = event
    }

    private mutating func buildChain(_ household: inout AccessHousehold) {
        household.original = newTransactionID()
        let stopAfter = household.event == .autoRenewOff ? Int(random.between(1, 3)) : Int.max
        var purchase = household.tap
        while true {
            let expires: Int64? =
                household.isSubscription
                ? CivilDate.addingMonths(Timestamp(milliseconds: purchase), household.kind == 0 ? 1 : 12).milliseconds : nil
            let id = household.chain.isEmpty ? household.original : newTransactionID()
            household.chain.append(
                SyntheticTransaction(
                    id: id, originalID: household.original, productID: household.product,
                    type: household.isSubscription ? .autoRenewable : .nonConsumable, ownership: .purchased, purchase: purchase,
                    expires: expires, price: SyntheticCatalog.price(household.product), currency: household.currency,
                    token: household.token, webOrderLineItemID: household.isSubscription ? newTransactionID() : nil,
                    appTransactionID: "app-" + household.purchaser,
                    groupID: household.isSubscription ? SyntheticCatalog.group : nil))
            guard let expires, expires < horizon, household.chain.count < stopAfter else { break }
            purchase = expires
        }
        if household.chain.count > 1 { count("renewal", household.chain.count - 1) }
        if household.kind == 1 { count("yearly_subscription") }
        if household.kind == 2 { count("non_consumable") }
    }

    /// The refund, if any, and which transaction it hits; later renewals never happen.
    private mutating func chooseRefund(_ household: inout AccessHousehold) {
        guard [.refund, .prorated, .reversal].contains(household.event) else { return }
        let chain = household.chain
        let candidates = chain.indices.filter { chain[$0].purchase < windowEnd - Self.day }
        guard let last = candidates.last else { return }
        let index = candidates.count > 1 && random.chance(ScenarioWeights.refundPreviousPeriodPercent) ? last - 1 : last
        let length = chain[index].expires.map { $0 - chain[index].purchase } ?? 40 * Self.day
        let at = chain[index].purchase + random.between(Self.hour, max(Self.hour + 1, min(20 * Self.day, length - Self.hour)))
        household.refundAt = at
        guard at < horizon else { return }
        household.refundIndex = index
        if household.event != .reversal { household.chain.removeSubrange((index + 1)...) }
    }

    /// A mid-period move to the higher tier of the group: a new transaction, the same original.
    private mutating func upgrade(_ household: inout AccessHousehold) {
        guard household.event == .upgrade,
            let index = household.chain.indices.last(where: { household.chain[$0].purchase < windowEnd - 25 * Self.day })
        else { return }
        let at = household.chain[index].purchase + random.between(3 * Self.day, 20 * Self.day)
        household.chain.removeSubrange((index + 1)...)
        household.chain[index].isUpgraded = true
        household.chain[index].revocationDate = at
        household.chain[index].revocationReason = .other
        household.upgradeAt = at
        count("upgrade")
        var purchase = at
        while purchase < horizon {
            let expires = CivilDate.addingMonths(Timestamp(milliseconds: purchase), 1).milliseconds
            household.chain.append(
                SyntheticTransaction(
                    id: newTransactionID(), originalID: household.original, productID: SyntheticCatalog.monthlyMax,
                    type: .autoRenewable, ownership: .purchased, purchase: purchase, expires: expires,
                    price: SyntheticCatalog.price(SyntheticCatalog.monthlyMax), currency: household.currency,
                    token: household.token, webOrderLineItemID: newTransactionID(),
                    appTransactionID: "app-" + household.purchaser,
                    groupID: SyntheticCatalog.group))
            purchase = expires
        }
    }

    /// SUBSCRIBED or ONE_TIME_CHARGE, DID_RENEW, DID_CHANGE_RENEWAL_PREF for each purchase.
    private mutating func notifyPurchases(_ household: AccessHousehold) {
        for (index, transaction) in household.chain.enumerated() {
            var copy = transaction
            copy.isUpgraded = false
            copy.revocationDate = nil
            copy.revocationReason = nil
            let type: NotificationType
            let subtype: NotificationSubtype?
            if let upgradeAt = household.upgradeAt, transaction.purchase == upgradeAt {
                (type, subtype) = (.didChangeRenewalPref, .upgrade)
            } else if let recovery = household.grace?.recovery, recovery == index {
                (type, subtype) = (.didRenew, .billingRecovery)
            } else if index == 0 {
                (type, subtype) = household.isSubscription ? (.subscribed, .initialBuy) : (.oneTimeCharge, nil)
            } else {
                (type, subtype) = (.didRenew, nil)
            }
            notify(type, subtype, at: transaction.purchase + random.between(1000, 5000), copy)
        }
    }

    /// Each purchaser transaction reaches each member: the first about an hour after the tap,
    /// renewals with the purchaser's.
    private mutating func buildMemberChains(_ household: inout AccessHousehold) {
        for member in household.members {
            let delay = random.between(60 * Self.minute, 75 * Self.minute)
            let memberOriginal = newTransactionID()
            var memberChain: [SyntheticTransaction] = []
            for transaction in household.chain where transaction.productID == household.product {
                memberChain.append(
                    SyntheticTransaction(
                        id: memberChain.isEmpty ? memberOriginal : newTransactionID(), originalID: memberOriginal,
                        productID: household.product, type: transaction.type, ownership: .familyShared,
                        purchase: transaction.purchase + (memberChain.isEmpty ? delay : 0), expires: transaction.expires,
                        price: transaction.price, currency: household.currency, token: nil,
                        webOrderLineItemID: transaction.webOrderLineItemID, appTransactionID: "app-" + member,
                        groupID: transaction.groupID))
            }
            household.memberChains.append(memberChain)
        }
        household.memberNotice = Array(repeating: 0, count: household.members.count)
    }

    /// A member leaves the family, with a dated revocation or an undated REVOKE.
    private mutating func memberExit(_ household: inout AccessHousehold) {
        guard household.event == .exit, !household.members.isEmpty else { return }
        let memberIndex = Int(random.below(Int64(household.members.count)))
        guard let first = household.memberChains[memberIndex].first else { return }
        let latest = min(household.memberChains[memberIndex].last?.expires ?? windowEnd, windowEnd) - Self.hour
        guard latest > first.purchase + Self.day else { return }
        let at = first.purchase + Self.day + random.below(latest - first.purchase - Self.day)
        household.memberChains[memberIndex].removeAll { $0.purchase > at }
        let dated = random.chance(ScenarioWeights.datedExitPercent)
        household.exit = (memberIndex, at, dated)
        count(dated ? "family_exit_dated" : "family_exit_undated")
    }

    private mutating func notifyMembers(_ household: inout AccessHousehold) {
        let subscription = household.isSubscription
        for (memberIndex, memberChain) in household.memberChains.enumerated() {
            for (index, transaction) in memberChain.enumerated() {
                let type: NotificationType = index == 0 ? (subscription ? .subscribed : .oneTimeCharge) : .didRenew
                let subtype: NotificationSubtype? = index == 0 && subscription ? .initialBuy : nil
                notify(type, subtype, at: transaction.purchase + random.between(1000, 5000), transaction)
            }
            guard let exit = household.exit, exit.member == memberIndex, var last = memberChain.last else { continue }
            if exit.dated {
                last.revocationDate = exit.at
                last.revocationReason = .other
                last.revocationType = .familyRevoke
                household.memberChains[memberIndex][memberChain.count - 1] = last
            }
            notify(.revoke, nil, at: exit.at + random.between(1000, 4000), last)
        }
    }
}
