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
        // the rows' places (four bytes each) rather than copies of the ids or sets of strings:
        // these counts are made at the report's peak, beside the whole ledger and every figure.
        let leaks = figures.leaks
        let ended = Self.places(of: leaks.count) { leaks[$0].isLeak }
        let expired = Self.places(of: leaks.count) { !leaks[$0].isLeak }
        func accountPrecedes(_ a: Int, _ b: Int) -> Bool { leaks[a].account.bytesPrecede(leaks[b].account) }
        func sameAccount(_ a: Int, _ b: Int) -> Bool { leaks[a].account.bytesEqual(leaks[b].account) }
        leakRows = ended.count
        Self.forEachRun(of: ended, by: accountPrecedes, same: sameAccount) { _ in leakingAccounts += 1 }
        leakingAccountsBeyondGrace = figures.total.leakedAccounts
        expiryRows = expired.count
        Self.forEachRun(of: expired, by: accountPrecedes, same: sameAccount) { _ in expiryAccounts += 1 }
        refunds = figures.refunds.count
        chargebacks = figures.chargebacks.count
        let people = figures.familySpend
        Self.forEachRun(
            of: Self.places(of: people.count) { !people[$0].purchase.isEmpty },
            by: { people[$0].purchase < people[$1].purchase }, same: { people[$0].purchase == people[$1].purchase }
        ) { _ in sharedPurchases += 1 }
        func account(_ row: Int) -> String { people[row].account ?? "" }
        // A member is served (or unlinked) when any of their rows is.
        Self.forEachRun(
            of: Self.places(of: people.count) { people[$0].role == .member && people[$0].account != nil },
            by: { account($0).bytesPrecede(account($1)) }, same: { account($0).bytesEqual(account($1)) }
        ) { rows in
            familyMembers += 1
            if rows.contains(where: { people[Int($0)].costEntitled > .zero }) { familyMembersServed += 1 }
            if rows.contains(where: { people[Int($0)].purchase.isEmpty }) { familyMembersUnlinked += 1 }
        }
        leakingSubscriptions = figures.subscriptionLosses.count(where: { $0.leakedCost != .zero })
        consumptionRequests = figures.consumption.count
        consumptionByOutcome = [ConsumptionOutcome.granted, .declined, .pending].map { outcome in
            (outcome, figures.consumption.count(where: { $0.outcome == outcome }))
        }
        if figures.journalRead {
            consumptionAnsweredInTime = figures.consumption.count(where: { $0.answered?.inTime ?? false })
            consumptionBeforeJournal = figures.consumption.count(where: { $0.answered?.beforeJournal ?? false })
            consumptionNeedingAttention = figures.consumption.count(where: \.needsAttention)
        }
        consumptionByRecommendation = RefundPreference.allCases.map { preference in
            (preference, figures.consumption.count(where: { $0.preference == preference }))
        }
    }

    /// The places, four bytes each, of the rows among `count` that `isCounted`.
    private static func places(of count: Int, where isCounted: (Int) -> Bool) -> [Int32] {
        var places: [Int32] = []
        for row in 0..<count where isCounted(row) { places.append(Int32(row)) }
        return places
    }

    /// Sorts `places` by `precedes`, then hands `body` each run of places whose rows `same` tells
    /// apart from none of the run's first: one run a distinct key.
    private static func forEachRun(
        of places: consuming [Int32], by precedes: (Int, Int) -> Bool, same: (Int, Int) -> Bool,
        _ body: (ArraySlice<Int32>) -> Void
    ) {
        places.sort { precedes(Int($0), Int($1)) }
        var start = 0
        while start < places.count {
            var end = start + 1
            while end < places.count && same(Int(places[start]), Int(places[end])) { end += 1 }
            body(places[start..<end])
            start = end
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
