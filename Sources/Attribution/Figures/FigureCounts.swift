import Support

/// Every count the page shows, worked out once from the rows the CSV files list, so the
/// headline, the tables and run.json's `figures` can never disagree.
///
/// Each count says which file's rows it counts; a test checks each against that file.
package struct FigureCounts: Sendable {
    /// Distinct accounts of leaks.csv whose access ended by a refund or a family exit and who
    /// were served after it (expiry rows left out).
    package var leakingAccounts = 0
    /// Of those, the accounts served later than notice plus grace: summary's `leaked_accounts`.
    var leakingAccountsBeyondGrace = 0
    /// Rows of leaks.csv that are leaks (refund or family exit), and those of expired access.
    package var leakRows = 0
    package var expiryRows = 0
    package var expiryAccounts = 0
    /// Rows of refunds.csv.
    package var refunds = 0
    /// Distinct purchases with linked members, and distinct member accounts, in family_spend.csv.
    package var sharedPurchases = 0
    package var familyMembers = 0
    /// Members served while entitled on a shared purchase, and members linked to no purchase.
    package var familyMembersServed = 0
    package var familyMembersUnlinked = 0
    /// Rows of subscription_loss.csv with leaked cost.
    var leakingSubscriptions = 0
    /// Rows of consumption_requests.csv, by Apple's outcome and by the evidence's recommendation.
    package var consumptionRequests = 0
    package var consumptionByOutcome: [(ConsumptionOutcome, Int)] = []
    package var consumptionByRecommendation: [(RefundPreference, Int)] = []
    /// With a journal of `respond`: requests answered within Apple's 12 hours (nil: not known).
    package var consumptionAnsweredInTime: Int?
    /// With a journal: requests whose 12 hours ended before the journal began (`before_journal`),
    /// kept apart from the requests not answered in time, and the requests a person must look
    /// at (refused, failed, still being sent, missed on respond's watch, answered late, never
    /// named though due).
    package var consumptionBeforeJournal: Int?
    package var consumptionNeedingAttention: Int?
    /// Rows of chargebacks.csv.
    package var chargebacks = 0

    package init() {}

    package init(_ figures: ReportFigures) {
        // Distinct ids are counted by their bytes (docs/inputs.md, "Identifiers"), by sorting
        // the ids rather than in sets of strings: these counts are made at the report's peak,
        // beside the whole ledger, and a set takes about three times an array's room.
        var ended: [String] = [], expired: [String] = []
        for leak in figures.leaks {
            if leak.isLeak { ended.append(leak.account) } else { expired.append(leak.account) }
        }
        leakRows = ended.count
        leakingAccounts = ended.sortedUniqueByBytes().count
        leakingAccountsBeyondGrace = figures.total.leakedAccounts
        expiryRows = expired.count
        expiryAccounts = expired.sortedUniqueByBytes().count
        refunds = figures.refunds.count
        chargebacks = figures.chargebacks.count
        var purchases: [PackedID] = []
        var members: [(account: String, served: Bool, unlinked: Bool)] = []
        for person in figures.familySpend {
            if !person.purchase.isEmpty { purchases.append(person.purchase) }
            guard person.role == .member, let account = person.account else { continue }
            members.append((account, person.costEntitled > .zero, person.purchase.isEmpty))
        }
        purchases.sort()
        sharedPurchases = purchases.indices.count { $0 == 0 || purchases[$0] != purchases[$0 - 1] }
        // A member is served (or unlinked) when any of their rows is.
        members.sort { $0.account.bytesPrecede($1.account) }
        var start = 0
        while start < members.count {
            var end = start
            var served = false, unlinked = false
            while end < members.count && members[end].account.bytesEqual(members[start].account) {
                served = served || members[end].served
                unlinked = unlinked || members[end].unlinked
                end += 1
            }
            familyMembers += 1
            if served { familyMembersServed += 1 }
            if unlinked { familyMembersUnlinked += 1 }
            start = end
        }
        leakingSubscriptions = figures.subscriptionLosses.filter { $0.leakedCost != .zero }.count
        consumptionRequests = figures.consumption.count
        consumptionByOutcome = [ConsumptionOutcome.granted, .declined, .pending].map { outcome in
            (outcome, figures.consumption.filter { $0.outcome == outcome }.count)
        }
        if figures.journalRead {
            consumptionAnsweredInTime = figures.consumption.filter { $0.answered?.inTime ?? false }.count
            consumptionBeforeJournal = figures.consumption.filter { $0.answered?.beforeJournal ?? false }.count
            consumptionNeedingAttention = figures.consumption.filter(\.needsAttention).count
        }
        consumptionByRecommendation = RefundPreference.allCases.map { preference in
            (preference, figures.consumption.filter { $0.preference == preference }.count)
        }
    }

    /// run.json's `figures`: the names are the interface.
    package var json: JSONValue {
        func count(_ value: Int) -> JSONValue { .integer(Int64(value)) }
        return .object([
            ("leaking_accounts", count(leakingAccounts)),
            ("leaking_accounts_beyond_grace", count(leakingAccountsBeyondGrace)),
            ("leak_rows", count(leakRows)),
            ("expiry_rows", count(expiryRows)),
            ("expiry_accounts", count(expiryAccounts)),
            ("refunds", count(refunds)),
            ("shared_purchases", count(sharedPurchases)),
            ("family_members", count(familyMembers)),
            ("family_members_served", count(familyMembersServed)),
            ("family_members_unlinked", count(familyMembersUnlinked)),
            ("leaking_subscriptions", count(leakingSubscriptions)),
            ("consumption_requests", count(consumptionRequests)),
            ("consumption_by_apple_outcome", .object(consumptionByOutcome.map { ($0.0.rawValue, count($0.1)) })),
            (
                "consumption_by_recommendation",
                .object(consumptionByRecommendation.map { ($0.0.rawValue.lowercased(), count($0.1)) })
            ),
            ("consumption_answered_in_time", consumptionAnsweredInTime.map(count) ?? .null),
            ("consumption_before_journal", consumptionBeforeJournal.map(count) ?? .null),
            ("consumption_needing_attention", consumptionNeedingAttention.map(count) ?? .null),
            ("chargebacks", count(chargebacks)),
        ])
    }
}
