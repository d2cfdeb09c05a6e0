import Ingest
import Ledger
import Support

/// Google's three refund preferences (`orders.reviewrefund`): Apple's answer mapped onto them,
/// docs/domain.md rule 17.
package enum GooglePreference: String, Sendable, Hashable, CaseIterable {
    case decline = "DECLINE"
    case approve = "APPROVE"
    case neutral = "NEUTRAL"

    /// DECLINE stays DECLINE; a full refund is APPROVE; a prorated one, which Google cannot
    /// grant, is NEUTRAL: the use is partial, and Google weighs it.
    package init(_ apple: RefundPreference) {
        switch apple {
        case .decline: self = .decline
        case .grantFull: self = .approve
        case .grantProrated: self = .neutral
        }
    }
}

/// The answer to one Google Play pending refund review, worked out from the account's delivery
/// as Apple's is (docs/domain.md rules 11 and 17): the share used when the review came, the
/// preference that follows, whether the customer tried the product first, and the usage events.
package struct PlayReviewFigure: Sendable {
    /// Google takes at most this many usage events; the most recent go.
    package static let maxEvents = 1_000
    /// Google takes a description of at most this many characters.
    package static let maxDescription = 5_000

    package var pendingRefundToken: String
    package var orderID: String
    package var account: String
    /// When Google notified the review: its 24 hours count from here.
    package var reviewedAt: Timestamp
    package var consented: Bool
    package var delivery: DeliveryStatus
    /// Milliunits, 0 to 100,000.
    package var consumption: Int64
    package var usedText: String
    package var preference: GooglePreference
    /// Which facts decided the preference, in words.
    package var basis: String
    package var sampleContentProvided: Bool
    /// The rows served on the order up to the review, most recent first, at most `maxEvents`.
    package var events: [UsageRow]

    /// The answer to `review` of `order`, `account`'s, whose other orders are `held` (by
    /// creation, `order` among them) and whose rows are `rows` (by time).
    package static func of(
        review: PlayNotification, order: PlayOrderAccess, account: String, held: [PlayOrderAccess], rows: [UsageRow],
        products: [String: Product], evidence: ConsumptionEvidence, policy: ConsumptionPolicy
    ) -> PlayReviewFigure {
        let at = review.eventTime
        let delivery = evidence.delivery(transaction: order.order.orderID, at: at) ?? .delivered
        var (share, text, served) = used(order, held: held, rows: rows, at: at, products: products)
        if delivery != .delivered { (share, served) = (0, []) }
        let (apple, basis) = ConsumptionAnswer.preference(
            reason: nil, delivery: delivery, used: share, usedText: text, policy: policy)
        let mapped = GooglePreference(apple)
        return PlayReviewFigure(
            pendingRefundToken: review.pendingRefundToken ?? "", orderID: order.order.orderID, account: account,
            reviewedAt: at, consented: evidence.consented(account: account, at: at), delivery: delivery, consumption: share,
            usedText: text, preference: mapped, basis: basis.replacing("no reason; ", with: "") + " (\(mapped.rawValue))",
            sampleContentProvided: sampled(order, held: held, products: products),
            events: Array(served.reversed().prefix(maxEvents)))
    }

    /// Why the answer must not be sent, or nil when it may.
    package var refusal: String? { consented ? nil : "no consent" }

    /// The exact body of `orders.reviewrefund`, its members in Google's order.
    package var requestBody: JSONValue {
        var members: [(String, JSONValue)] = [
            ("pendingRefundToken", .string(pendingRefundToken)), ("sampleContentProvided", .bool(sampleContentProvided)),
            ("refundPreference", .string(preference.rawValue)), ("consumptionPercentageMilliunits", .integer(consumption)),
        ]
        if !events.isEmpty {
            members.append(
                (
                    "consumptionUsageEvents",
                    .array(
                        events.map { row in
                            .object([
                                ("obfuscatedAccountId", .string(account)), ("consumptionTime", .string(row.at.description)),
                                ("consumptionItemDescription", .string(Self.description(row.category))),
                            ])
                        })
                ))
        }
        return .object(members)
    }

    /// `category`, cut to Google's 5,000 characters counted as Google's own strings count them
    /// (UTF-16 code units, which no more code points than that exceed), never inside a character's code point.
    static func description(_ category: String) -> String {
        var units = 0
        var kept = String.UnicodeScalarView()
        for scalar in category.unicodeScalars {
            units += scalar.utf16.count
            if units > maxDescription { break }
            kept.append(scalar)
        }
        return String(kept)
    }

    /// The share of `order` used by `at`, in words, and the rows that used it (by time).
    ///
    /// A pack of credits (products.csv `credits`): the credits drawn from it, the account's packs
    /// drawn oldest first as rule 7 draws Apple's. A subscription: the period's elapsed share,
    /// once anything was served in it. Anything else: all of it once anything was served.
    private static func used(
        _ order: PlayOrderAccess, held: [PlayOrderAccess], rows: [UsageRow], at: Timestamp, products: [String: Product]
    ) -> (Int64, String, [UsageRow]) {
        let end = min(order.end ?? at, at)
        let inWindow = rows.filter { order.start <= $0.at && $0.at <= end }
        if let granted = credits(of: order, products: products), granted > 0 {
            let (drawn, drawing) = draws(from: order, held: held, rows: rows, through: at, products: products)
            let share = min(100_000, Int64(Int128(drawn) * 100_000 / Int128(granted)))
            let text = "\(drawn / Money.nanosPerUnit) of \(granted / Money.nanosPerUnit) credits used"
            return (share, text, drawing)
        }
        guard !inWindow.isEmpty else { return (0, "no cost served on it", []) }
        if order.order.lines.contains(where: \.isSubscription),
            let periodEnd = order.order.lines.compactMap(\.servicePeriodEnd).max()
        {
            let length = max(1, periodEnd.milliseconds - order.start.milliseconds)
            let elapsed = max(0, min(length, at.milliseconds - order.start.milliseconds))
            let share = Int64(Int128(elapsed) * 100_000 / Int128(length))
            return (share, "used, \(ConsumptionAnswer.percent(share)) of the period elapsed", inWindow)
        }
        return (100_000, "cost served on it (no credits in products.csv)", inWindow)
    }

    /// Credits the order granted, in nano-units: each line's product's credits times its quantity.
    private static func credits(of order: PlayOrderAccess, products: [String: Product]) -> Int64? {
        var total: Int64 = 0
        for line in order.order.lines {
            guard let credits = products[line.productID]?.credits else { continue }
            let (line, overflow) = credits.multipliedReportingOverflow(by: line.quantity * Money.nanosPerUnit)
            if overflow { return nil }
            total += line
        }
        return total > 0 ? total : nil
    }

    /// The credits drawn from `order` through `t`, and the rows that drew them: each credit row
    /// draws from the oldest pack of the account that is bought and not wholly voided at its time.
    private static func draws(
        from order: PlayOrderAccess, held: [PlayOrderAccess], rows: [UsageRow], through t: Timestamp,
        products: [String: Product]
    ) -> (Int64, [UsageRow]) {
        let packs = held.compactMap { pack in credits(of: pack, products: products).map { (pack, $0) } }
        var left = packs.map(\.1)
        var drawn: Int64 = 0
        var drawing: [UsageRow] = []
        for row in rows where row.at <= t {
            guard var wanted = row.credits, wanted > 0 else { continue }
            var drewFromOrder = false
            for (index, (pack, _)) in packs.enumerated() where left[index] > 0 && wanted > 0 {
                guard pack.start <= row.at, pack.lastUnitVoided.map({ row.at < $0 }) ?? true else { continue }
                let taken = min(left[index], wanted)
                left[index] -= taken
                wanted -= taken
                if pack.order.orderID == order.order.orderID {
                    drawn += taken
                    drewFromOrder = true
                }
            }
            if drewFromOrder { drawing.append(row) }
        }
        return (drawn, drawing)
    }

    /// The customer tried the product first: a product products.csv marks `sample_content`, or
    /// an earlier order of the same product by the account that cost nothing (a free trial).
    private static func sampled(_ order: PlayOrderAccess, held: [PlayOrderAccess], products: [String: Product]) -> Bool {
        let ids = Set(order.order.lines.map(\.productID))
        if ids.contains(where: { products[$0]?.sampleContent == true }) { return true }
        return held.contains { other in
            other.order.orderID != order.order.orderID && other.order.createTime <= order.order.createTime
                && other.order.lines.contains { ids.contains($0.productID) } && other.order.total?.money == .zero
        }
    }
}
