import Attribution
import Support

/// What families cost: how many purchases were shared, how many members they served, the
/// members' share of those products' cost, and the costliest families (family_spend.csv).
enum FamilySection {
    /// The costliest families the page lists.
    private static let shown = 10

    private struct Family {
        var id: String
        var product: String
        var purchaserAccount: String?
        var members = 0
        var purchaserCost = Money.zero
        var membersCost = Money.zero
        var total = Money.zero
    }

    static func html(_ figures: ReportFigures) throws -> String {
        typealias T = PageText
        let currency = figures.currency.description
        var text = "<h2>What families cost</h2>\n"
        guard !figures.familySpend.isEmpty else {
            return text + "<p>No family member was served on a shared purchase in this window.</p>\n"
        }
        // family_spend.csv's rows are in order of their family's id, so each family's rows are
        // side by side: a family is added up over its run of rows, and only the ten costliest
        // are kept (first seen first among equals), whatever the number of families.
        var familyCount = 0
        var costliest: [Family] = []
        var current: Family?
        func close(_ family: Family?) throws(MoneyError) {
            guard var family else { return }
            family.total = try family.purchaserCost.adding(family.membersCost)
            familyCount += 1
            let place = costliest.firstIndex { $0.total < family.total } ?? costliest.count
            guard place < Self.shown else { return }
            costliest.insert(family, at: place)
            if costliest.count > Self.shown { costliest.removeLast() }
        }
        let counts = figures.counts
        var unlinked = 0
        var membersEntitled = Money.zero, unlinkedCost = Money.zero
        var shareable = Set<String>()
        for person in figures.familySpend {
            shareable.insert(person.productID)
            if person.role == .member {
                membersEntitled = try membersEntitled.adding(person.costEntitled)
            }
            if person.purchaserTransactionID.isEmpty {
                unlinked += 1
                unlinkedCost = try unlinkedCost.adding(try person.costTotal())
                continue
            }
            var family = current ?? Family(id: person.purchaserTransactionID, product: person.productID)
            if family.id != person.purchaserTransactionID {
                try close(family)
                family = Family(id: person.purchaserTransactionID, product: person.productID)
            }
            if person.role == .purchaser {
                family.purchaserAccount = person.account
                family.purchaserCost = try family.purchaserCost.adding(try person.costTotal())
            } else {
                family.members += 1
                family.membersCost = try family.membersCost.adding(try person.costTotal())
            }
            current = family
        }
        try close(current)
        var shareableCost = Money.zero
        for row in figures.summary where shareable.contains(row.product ?? "") {
            shareableCost = try shareableCost.adding(try row.classes.total())
        }
        text +=
            "<p>\(T.counted(counts.sharedPurchases, "shared purchase")) served family members in the window; \(T.counted(counts.familyMembers, "member")) in family_spend.csv, \(T.count(counts.familyMembersServed)) of them served while entitled. "
            + "Members took <b>\(T.amount(membersEntitled, currency))</b> while entitled: \(T.percent(membersEntitled.nanos, of: shareableCost.nanos)) of the \(T.amount(shareableCost, currency)) served on the products they share.</p>\n"
        if unlinked > 0 {
            text +=
                "<p>\(T.counted(counts.familyMembersUnlinked, "member")) (\(T.amount(unlinkedCost, currency))) could not be linked to a purchase: their purchaser's transaction is not in the data or more than one matched.</p>\n"
        }
        text +=
            "<p class=\"muted\">\(LeakSection.shown(costliest.count, of: familyCount, file: "family_spend.csv")), by what the family cost.</p>\n"
        text +=
            "<div class=\"scroll\"><table><tr><th>purchase</th><th>product</th><th>purchaser</th><th class=\"n\">members</th><th class=\"n\">purchaser's cost</th><th class=\"n\">members' cost</th><th class=\"n\">family total</th></tr>\n"
        for family in costliest {
            text +=
                "<tr><td>\(T.escape(family.id))</td><td>\(T.escape(family.product))</td><td>\(T.escape(family.purchaserAccount ?? "–"))</td><td class=\"n\">\(family.members)</td><td class=\"n\">\(T.money(family.purchaserCost))</td><td class=\"n\">\(T.money(family.membersCost))</td><td class=\"n\">\(T.money(family.total))</td></tr>\n"
        }
        return text
            + "</table></div>\n<p class=\"muted\">Amounts in \(currency); a person's cost includes what was served after their access ended.</p>\n"
    }
}
