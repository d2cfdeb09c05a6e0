import Ingest
import Support

/// Builds households (a purchaser and up to five family members) and what happened to them:
/// renewals, refunds, reversals, exits, upgrades, expiries, consumption requests; and how the
/// app's server served each account, including servers that never revoked members.
struct ScenarioBuilder {
    var random: SeededRandom
    let windowStart: Int64
    let windowEnd: Int64
    /// Events are generated a few days past the window, so a closed month sees late notifications.
    let horizon: Int64

    private(set) var transactions: [SyntheticTransaction] = []
    private(set) var notifications: [SyntheticNotification] = []
    /// accounts.csv rows: account, original transaction id (may be empty), token.
    private(set) var accountRows: [(account: String, original: String, token: String)] = []
    private(set) var scenarios: [String: Int] = [:]
    /// consent.csv and deliveries.csv rows.
    private(set) var consentRows: [(account: String, consented: Bool, at: Int64)] = []
    private(set) var deliveryRows: [(transaction: String, status: String, at: Int64)] = []
    private(set) var accountCount = 0
    private var nextTransaction: Int64 = 2_000_000_700_000_000

    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    init(seed: UInt64, windowStart: Int64, windowEnd: Int64) {
        random = SeededRandom(seed: seed)
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        horizon = windowEnd + 3 * ScenarioBuilder.day
    }

    mutating func count(_ scenario: String, _ n: Int = 1) { scenarios[scenario, default: 0] += n }

    mutating func newAccount(prefix: String = "acct") -> String {
        accountCount += 1
        return "\(prefix)-" + String(accountCount).leftPadded(to: 6)
    }

    mutating func newTransactionID() -> String {
        nextTransaction += 1 + random.below(40)
        return String(nextTransaction)
    }

    mutating func uuid() -> String {
        let hex = String(random.next(), radix: 16).leftPadded(to: 16) + String(random.next(), radix: 16).leftPadded(to: 16)
        let chars = Array(hex.uppercased())
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(separator: "-")
    }

    mutating func notify(_ type: String, _ subtype: String?, at signed: Int64, _ copy: SyntheticTransaction, reason: String? = nil) {
        guard signed < horizon else { return }
        if signed >= windowEnd { count("late_event") }
        notifications.append(
            SyntheticNotification(type: type, subtype: subtype, signed: signed, transaction: copy, consumptionReason: reason, uuid: uuid()))
    }

    /// An account that never bought anything: its use is unlinked cost.
    mutating func unlinkedAccount() -> (String, [ServedSpan]) {
        count("unlinked_account")
        let account = newAccount(prefix: "anon")
        let from = windowStart + random.below(windowEnd - windowStart - ScenarioBuilder.day)
        return (account, [ServedSpan(from: from, to: from + random.between(ScenarioBuilder.hour, 10 * ScenarioBuilder.day))])
    }

    /// A purchase of access (subscription or non-consumable), shared with a family or not.
    mutating func accessHousehold(maxAccounts: Int) -> [(String, [ServedSpan])] {
        let minute = ScenarioBuilder.minute, hour = ScenarioBuilder.hour, day = ScenarioBuilder.day
        let purchaser = newAccount()
        let token = uuid()
        let kind = random.weighted([55, 18, 27])
        let product = [SyntheticCatalog.monthly, SyntheticCatalog.yearly, SyntheticCatalog.lifetime][kind]
        let isSubscription = kind < 2
        let familySize = min(maxAccounts - 1, random.weighted([40, 20, 15, 12, 8, 5]))
        let members = (0..<max(0, familySize)).map { _ in newAccount() }
        if !members.isEmpty { count("family_\(members.count)_members") }
        let currency = random.chance(10) ? "EUR" : "USD"
        let tap = windowStart - 45 * day + random.below(windowEnd - 3 * day - (windowStart - 45 * day))
        var spans: [String: [ServedSpan]] = [purchaser: []]

        if random.chance(40) {
            count("free_use_before_purchase")
            spans[purchaser, default: []].append(ServedSpan(from: tap - random.between(3 * hour, 10 * day), to: tap - random.between(2 * hour + minute, 3 * hour)))
        }

        // What happens to this purchase.
        enum Event { case none, refund, prorated, reversal, exit, upgrade, autoRenewOff }
        var event = [Event.none, .refund, .prorated, .reversal, .exit, .upgrade, .autoRenewOff][random.weighted([50, 14, 5, 3, 10, 4, 14])]
        if event == .reversal && !members.isEmpty { event = .refund }
        if event == .upgrade && (kind != 0 || !members.isEmpty) { event = .none }
        if event == .exit && members.isEmpty { event = .none }
        if event == .autoRenewOff && !isSubscription { event = .none }

        // The purchaser's chain of transactions: one, or a subscription renewing until it stops.
        let original = newTransactionID()
        var chain: [SyntheticTransaction] = []
        let stopAfter = event == .autoRenewOff ? Int(random.between(1, 3)) : Int.max
        var purchase = tap
        while true {
            let expires: Int64? = isSubscription ? CivilDate.addingMonths(Timestamp(milliseconds: purchase), kind == 0 ? 1 : 12).milliseconds : nil
            chain.append(SyntheticTransaction(
                id: chain.isEmpty ? original : newTransactionID(), originalID: original, productID: product,
                type: isSubscription ? .autoRenewable : .nonConsumable, ownership: .purchased, purchase: purchase, expires: expires,
                price: SyntheticCatalog.price(product), currency: currency, token: token,
                webOrderLineItemID: isSubscription ? newTransactionID() : nil, appTransactionID: "app-" + purchaser,
                groupID: isSubscription ? SyntheticCatalog.group : nil))
            guard let expires, expires < horizon, chain.count < stopAfter else { break }
            purchase = expires
        }
        if chain.count > 1 { count("renewal", chain.count - 1) }
        if kind == 1 { count("yearly_subscription") }
        if kind == 2 { count("non_consumable") }

        // The refund, if any, and which transaction it hits.
        var refundIndex: Int?
        var refundAt: Int64 = 0
        if event == .refund || event == .prorated || event == .reversal {
            let candidates = chain.indices.filter { chain[$0].purchase < windowEnd - day }
            if let index = candidates.last.map({ candidates.count > 1 && random.chance(30) ? $0 - 1 : $0 }) {
                let length = chain[index].expires.map { $0 - chain[index].purchase } ?? 40 * day
                refundAt = chain[index].purchase + random.between(hour, max(hour + 1, min(20 * day, length - hour)))
                if refundAt < horizon {
                    refundIndex = index
                    if event != .reversal { chain.removeSubrange((index + 1)...) }
                }
            }
        }

        // Upgrade: a mid-period move to the higher tier in the same group, new transaction, same original.
        var upgradeAt: Int64?
        if event == .upgrade, let index = chain.indices.last(where: { chain[$0].purchase < windowEnd - 25 * day }) {
            let at = chain[index].purchase + random.between(3 * day, 20 * day)
            chain.removeSubrange((index + 1)...)
            chain[index].isUpgraded = true
            chain[index].revocationDate = at
            chain[index].revocationReason = 0
            upgradeAt = at
            count("upgrade")
            var purchase = at
            while purchase < horizon {
                let expires = CivilDate.addingMonths(Timestamp(milliseconds: purchase), 1).milliseconds
                chain.append(SyntheticTransaction(
                    id: newTransactionID(), originalID: original, productID: SyntheticCatalog.monthlyMax, type: .autoRenewable,
                    ownership: .purchased, purchase: purchase, expires: expires, price: SyntheticCatalog.price(SyntheticCatalog.monthlyMax),
                    currency: currency, token: token, webOrderLineItemID: newTransactionID(), appTransactionID: "app-" + purchaser,
                    groupID: SyntheticCatalog.group))
                purchase = expires
            }
        }

        // Notifications for the purchaser's purchases.
        for (index, transaction) in chain.enumerated() {
            var copy = transaction
            copy.isUpgraded = false
            copy.revocationDate = nil
            copy.revocationReason = nil
            let type: String
            let subtype: String?
            if let upgradeAt, transaction.purchase == upgradeAt {
                (type, subtype) = ("DID_CHANGE_RENEWAL_PREF", "UPGRADE")
            } else if index == 0 {
                (type, subtype) = isSubscription ? ("SUBSCRIBED", "INITIAL_BUY") : ("ONE_TIME_CHARGE", nil)
            } else {
                (type, subtype) = ("DID_RENEW", nil)
            }
            notify(type, subtype, at: transaction.purchase + random.between(1000, 5000), copy)
        }

        // Members' transactions: each purchaser transaction reaches each member about an hour later.
        var memberChains: [[SyntheticTransaction]] = []
        for member in members {
            let delay = random.between(60 * minute, 75 * minute)
            let memberOriginal = newTransactionID()
            var memberChain: [SyntheticTransaction] = []
            for transaction in chain where transaction.productID == product {
                memberChain.append(SyntheticTransaction(
                    id: memberChain.isEmpty ? memberOriginal : newTransactionID(), originalID: memberOriginal, productID: product,
                    type: transaction.type, ownership: .familyShared,
                    // The first share reaches members about an hour after the tap; renewals arrive with the purchaser's.
                    purchase: transaction.purchase + (memberChain.isEmpty ? delay : 0),
                    expires: transaction.expires, price: transaction.price, currency: currency, token: nil,
                    webOrderLineItemID: transaction.webOrderLineItemID, appTransactionID: "app-" + member, groupID: transaction.groupID))
            }
            memberChains.append(memberChain)
        }

        // A member leaves the family.
        var exit: (member: Int, at: Int64, dated: Bool)?
        if event == .exit, !members.isEmpty, case let memberIndex = Int(random.below(Int64(members.count))),
            let first = memberChains[memberIndex].first
        {
            let latest = min(memberChains[memberIndex].last?.expires ?? windowEnd, windowEnd) - hour
            if latest > first.purchase + day {
                let at = first.purchase + day + random.below(latest - first.purchase - day)
                memberChains[memberIndex].removeAll { $0.purchase > at }
                exit = (memberIndex, at, random.chance(50))
                count(exit?.dated == true ? "family_exit_dated" : "family_exit_undated")
            }
        }

        for (memberIndex, memberChain) in memberChains.enumerated() {
            for (index, transaction) in memberChain.enumerated() {
                let type = index == 0 ? (isSubscription ? "SUBSCRIBED" : "ONE_TIME_CHARGE") : "DID_RENEW"
                notify(type, index == 0 && isSubscription ? "INITIAL_BUY" : nil, at: transaction.purchase + random.between(1000, 5000), transaction)
            }
            if let exit, exit.member == memberIndex, var last = memberChains[memberIndex].last {
                if exit.dated {
                    last.revocationDate = exit.at
                    last.revocationReason = 0
                    last.revocationType = "FAMILY_REVOKE"
                    memberChains[memberIndex][memberChains[memberIndex].count - 1] = last
                }
                notify("REVOKE", nil, at: exit.at + random.between(1000, 4000), last)
            }
        }

        // The refund and its member REVOKEs.
        var refundNotice: Int64 = 0
        var memberNotice: [Int64] = Array(repeating: 0, count: members.count)
        var reversedAt: Int64?
        if let refundIndex {
            let prorated = event == .prorated
            chain[refundIndex].revocationDate = refundAt
            chain[refundIndex].revocationReason = random.chance(20) ? 1 : 0
            chain[refundIndex].revocationType = prorated ? "REFUND_PRORATED" : "REFUND_FULL"
            chain[refundIndex].revocationPercentage = prorated ? random.between(10, 90) * 1000 : nil
            count(prorated ? "refund_prorated" : event == .reversal ? "refund_reversed" : "refund_full")
            if random.chance(25) {
                count("consumption_request_subscription")
                if random.chance(60) { consentRows.append((purchaser, true, chain[refundIndex].purchase)) }
                var copy = chain[refundIndex]
                copy.revocationDate = nil
                copy.revocationReason = nil
                copy.revocationType = nil
                copy.revocationPercentage = nil
                notify("CONSUMPTION_REQUEST", nil, at: refundAt - random.between(hour, 2 * day), copy,
                       reason: ["UNSATISFIED_WITH_PURCHASE", "UNINTENDED_PURCHASE", "OTHER"][random.weighted([50, 30, 20])])
            }
            refundNotice = refundAt + random.between(2000, 60_000)
            notify("REFUND", nil, at: refundNotice, chain[refundIndex])
            if !members.isEmpty { count("family_refund") }
            for memberIndex in members.indices {
                let refunded = chain[refundIndex]
                guard let position = memberChains[memberIndex].lastIndex(where: { $0.purchase <= refundAt && $0.expires == refunded.expires })
                    ?? memberChains[memberIndex].indices.last
                else { continue }
                memberChains[memberIndex].removeSubrange((position + 1)...)
                memberChains[memberIndex][position].revocationDate = refundAt + random.between(0, 5 * minute)
                memberChains[memberIndex][position].revocationReason = refunded.revocationReason
                memberChains[memberIndex][position].revocationType = "FAMILY_REVOKE"
                memberNotice[memberIndex] = refundAt + random.between(minute, 10 * minute)
                notify("REVOKE", nil, at: memberNotice[memberIndex], memberChains[memberIndex][position])
            }
            if event == .reversal {
                let at = refundAt + random.between(3 * day, 10 * day)
                var restored = chain[refundIndex]
                restored.revocationDate = nil
                restored.revocationReason = nil
                restored.revocationType = nil
                chain[refundIndex] = restored
                notify("REFUND_REVERSED", nil, at: at, restored)
                reversedAt = at
            }
        }

        // Expiry of a chain that stopped renewing.
        let lastExpiry = chain.last?.expires
        let expired = lastExpiry.map { $0 < windowEnd } ?? false
        if expired, let last = chain.last, refundIndex == nil, let expires = last.expires {
            count("expiry")
            notify("EXPIRED", "VOLUNTARY", at: expires + random.between(1000, 60_000), last)
            for memberChain in memberChains { if let memberLast = memberChain.last, memberLast.expires == expires {
                notify("EXPIRED", "VOLUNTARY", at: expires + random.between(1000, 60_000), memberLast)
            } }
        }

        // How the server served the purchaser.
        let serverRevokesMembers = random.chance(70)
        var purchaserEnd = windowEnd
        if refundIndex != nil {
            if random.chance(80) {
                purchaserEnd = refundNotice + random.between(0, 50 * minute)
            } else {
                count("server_leak_purchaser")
                purchaserEnd = refundNotice + random.between(3 * hour, 10 * day)
            }
        } else if expired, let lastExpiry {
            purchaserEnd = lastExpiry + (random.chance(30) ? random.between(day, 5 * day) : 0)
            if purchaserEnd > lastExpiry { count("served_after_expiry") }
        }
        if let reversedAt, refundIndex != nil {
            spans[purchaser, default: []].append(ServedSpan(from: tap + random.between(0, 10 * minute), to: purchaserEnd))
            spans[purchaser, default: []].append(ServedSpan(from: reversedAt + random.between(minute, hour), to: windowEnd))
        } else {
            spans[purchaser, default: []].append(ServedSpan(from: tap + random.between(0, 10 * minute), to: purchaserEnd))
        }

        // And each member.
        for (memberIndex, member) in members.enumerated() {
            guard let first = memberChains[memberIndex].first else { continue }
            var start = first.purchase + random.between(minute, 20 * minute)
            if random.chance(40) {
                count("premature_grant")
                start = tap + random.between(5 * minute, 55 * minute)
            }
            var end = purchaserEnd
            if refundIndex != nil && event != .reversal {
                if random.chance(25) {
                    // This member also bought the product: a second valid transaction keeps them entitled.
                    count("second_valid_transaction")
                    let own = newTransactionID()
                    chainAppend(SyntheticTransaction(
                        id: own, originalID: own, productID: SyntheticCatalog.lifetime, type: .nonConsumable, ownership: .purchased,
                        purchase: first.purchase - random.between(day, 30 * day), expires: nil,
                        price: SyntheticCatalog.price(SyntheticCatalog.lifetime), currency: currency, token: nil,
                        webOrderLineItemID: nil, appTransactionID: "app-" + member), account: member, token: "")
                    end = windowEnd
                } else if serverRevokesMembers {
                    end = memberNotice[memberIndex] + random.between(0, 50 * minute)
                } else {
                    count("server_leak_member")
                    end = random.chance(50) ? windowEnd : memberNotice[memberIndex] + random.between(day, 40 * day)
                }
            }
            if let exit, exit.member == memberIndex {
                if random.chance(50) {
                    count("server_leak_exit")
                    end = exit.at + random.between(2 * hour, 30 * day)
                } else {
                    end = exit.at + random.between(0, 30 * minute)
                }
            }
            spans[member, default: []].append(ServedSpan(from: start, to: end))
        }

        // The ledger side: every transaction, and how accounts.csv links them.
        for transaction in chain { transactions.append(transaction) }
        if random.chance(30) {
            count("linked_by_token")
            accountRows.append((purchaser, "", token))
        } else {
            accountRows.append((purchaser, original, token))
        }
        for (memberIndex, member) in members.enumerated() {
            guard let first = memberChains[memberIndex].first else { continue }
            transactions.append(contentsOf: memberChains[memberIndex])
            accountRows.append((member, first.originalID, ""))
        }
        return ([purchaser] + members).map { ($0, spans[$0] ?? []) }
    }

    private mutating func chainAppend(_ transaction: SyntheticTransaction, account: String, token: String) {
        transactions.append(transaction)
        notify("ONE_TIME_CHARGE", nil, at: transaction.purchase + random.between(1000, 5000), transaction)
        accountRows.append((account, transaction.originalID, token))
    }

    /// A buyer of credit packs; some ask Apple for a refund through a consumption request.
    mutating func consumableHousehold() -> [(String, [ServedSpan])] {
        let hour = ScenarioBuilder.hour, day = ScenarioBuilder.day
        let account = newAccount()
        let token = uuid()
        count("consumable_buyer")
        var spans: [ServedSpan] = []
        var firstOriginal = ""
        for _ in 0..<Int(random.between(1, 3)) {
            let id = newTransactionID()
            if firstOriginal.isEmpty { firstOriginal = id }
            let quantity = random.between(1, 2)
            let purchase = windowStart - 20 * day + random.below(windowEnd - 5 * day - (windowStart - 20 * day))
            var pack = SyntheticTransaction(
                id: id, originalID: id, productID: SyntheticCatalog.credits, type: .consumable, ownership: .purchased,
                purchase: purchase, expires: nil, price: SyntheticCatalog.price(SyntheticCatalog.credits) * quantity, currency: "USD",
                quantity: quantity, token: token, webOrderLineItemID: nil, appTransactionID: "app-" + account)
            notify("ONE_TIME_CHARGE", nil, at: purchase + random.between(1000, 5000), pack)
            spans.append(ServedSpan(from: purchase + random.between(60_000, hour), to: purchase + random.between(3 * day, 25 * day), credits: true))
            if random.chance(35) {
                count("consumption_request")
                let requested = purchase + random.between(day, 10 * day)
                let reasons = ["UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER"]
                let reason = reasons[random.weighted([30, 20, 30, 5, 15])]
                notify("CONSUMPTION_REQUEST", nil, at: requested, pack, reason: reason)
                if reason == "FULFILLMENT_ISSUE" && random.chance(50) {
                    count("undelivered_pack")
                    deliveryRows.append((id, "UNDELIVERED_SERVER_OUTAGE", purchase + 5 * 60_000))
                } else if random.chance(30) {
                    deliveryRows.append((id, "DELIVERED", purchase + 60_000))
                }
                switch random.weighted([45, 35, 20]) {
                case 0:
                    count("consumption_refund_granted")
                    pack.revocationDate = requested + random.between(day, 5 * day)
                    pack.revocationReason = 0
                    pack.revocationType = "REFUND_FULL"
                    notify("REFUND", nil, at: (pack.revocationDate ?? requested) + random.between(2000, 60_000), pack)
                case 1:
                    count("consumption_refund_declined")
                    notify("REFUND_DECLINED", nil, at: requested + random.between(day, 5 * day), pack)
                default:
                    count("consumption_pending")
                }
            }
            transactions.append(pack)
        }
        accountRows.append((account, firstOriginal, token))
        if random.chance(70) {
            count("consented_to_share_consumption")
            consentRows.append((account, true, windowStart - 60 * day))
        }
        return [(account, spans)]
    }

    /// Test purchases in the Sandbox: they must change nothing in a Production report.
    mutating func sandboxNoise() {
        count("sandbox_notification")
        let id = newTransactionID()
        let purchase = windowStart + random.below(windowEnd - windowStart)
        var transaction = SyntheticTransaction(
            id: id, originalID: id, productID: SyntheticCatalog.monthly, type: .autoRenewable, ownership: .purchased,
            purchase: purchase, expires: CivilDate.addingMonths(Timestamp(milliseconds: purchase), 1).milliseconds,
            price: SyntheticCatalog.price(SyntheticCatalog.monthly), currency: "USD", token: nil, webOrderLineItemID: nil,
            appTransactionID: "sandbox-app", groupID: SyntheticCatalog.group)
        transaction.environment = "Sandbox"
        notify("SUBSCRIBED", "INITIAL_BUY", at: purchase + 2000, transaction)
        notifications[notifications.count - 1].environment = "Sandbox"
    }
}
