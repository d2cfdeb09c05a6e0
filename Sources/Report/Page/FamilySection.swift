import Attribution
import Support

/// What families cost: how many purchases were shared, how many members they served, the
/// members' share of those products' cost, and the costliest families (family_spend.csv).
enum FamilySection {
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
        var families: [String: Family] = [:]
        var order: [String] = []
        let counts = figures.counts
        var unlinked = 0
        var membersEntitled = Money.zero, unlinkedCost = Money.zero
        for person in figures.familySpend {
            if person.role == .member {
                membersEntitled = try membersEntitled.adding(person.costEntitled)
            }
            if person.purchaserTransactionID.isEmpty {
                unlinked += 1
                unlinkedCost = try unlinkedCost.adding(try person.costTotal())
                continue
            }
            if families[person.purchaserTransactionID] == nil { order.append(person.purchaserTransactionID) }
            var family =
                families[person.purchaserTransactionID]
                ?? Family(id: person.purchaserTransactionID, product: person.productID)
            if person.role == .purchaser {
                family.purchaserAccount = person.account
                family.purchaserCost = try family.purchaserCost.adding(try person.costTotal())
            } else {
                family.members += 1
                family.membersCost = try family.membersCost.adding(try person.costTotal())
            }
            family.total = try family.purchaserCost.adding(family.membersCost)
            families[person.purchaserTransactionID] = family
        }
        let shareable = Set(figures.familySpend.map(\.productID))
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
        let costliest = order.compactMap { families[$0] }.enumerated().sorted { a, b in
            a.element.total != b.element.total ? a.element.total > b.element.total : a.offset < b.offset
        }.prefix(10).map(\.element)
        text +=
            "<p class=\"muted\">\(LeakSection.shown(costliest.count, of: families.count, file: "family_spend.csv")), by what the family cost.</p>\n"
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
