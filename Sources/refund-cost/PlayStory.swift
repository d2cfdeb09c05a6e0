import Attribution
import Ingest
import Ledger
import Support

/// An account's Google Play orders as terminal text, for `explain`: access, voids, what the
/// developer keeps, the delivery cost while each gave access, and what a chargeback lost.
enum PlayStory {
    /// `fee`: the bank's fee for a chargeback (`--chargeback-fee`), in `currency`; nil when not given.
    static func text(
        _ orders: [PlayOrderAccess], costs: PlayOrderCosts, rates: ExchangeRates, currency: CurrencyCode, fee: Money?
    ) -> String {
        guard !orders.isEmpty else { return "" }
        var out =
            "\nGoogle Play orders (\(orders.count)): each a transaction above too, whose access classifies the account's cost rows\n"
        for (index, access) in orders.enumerated() {
            let order = access.order
            let products = order.lines.map { "\($0.productID) x\($0.quantity)" }.joined(separator: ", ")
            out += "  \(order.orderID)  \(products), created \(order.createTime)"
            out += order.total.map { ": paid \(amount($0))" } ?? ""
            out += order.developerRevenue.map { ", received \(amount($0))" } ?? ""
            out += order.rawState.map { " (state \($0))" } ?? ""
            out += "\n    access from \(access.start)" + (access.end.map { " to \($0)" } ?? ", lasting") + "\n"
            for void in access.voids {
                let what = void.voidedQuantity.map { "\($0) of \(access.quantity) units" } ?? "the whole order"
                let why = void.reason?.name ?? void.rawReason.map { "reason \($0)" } ?? "no reason given"
                let who = void.voidSource.map(Self.who) ?? void.rawSource.map { "source \($0)" } ?? "no one named"
                let kind = void.isChargeback ? "chargeback" : "refund (\(why))"
                let ends = void.voidedTime == access.lastUnitVoided ? "; access ends" : ""
                out += "    voided \(void.voidedTime): \(what), \(kind), by \(who)\(ends)\n"
            }
            let spent = costs.spent[index]
            let rows = costs.rows[index]
            out +=
                "    delivery cost while it gave access: \(spent) \(currency) (\(HumanText.count(rows)) row\(rows == 1 ? "" : "s"))\n"
            if !access.voids.isEmpty, let kept = access.keptRevenue { out += "    kept of what was received: \(amount(kept))\n" }
            if let chargeback = access.chargeback, let takenBack = access.chargedBack {
                out +=
                    "    chargeback lost: "
                    + lost(takenBack, spent, fee: fee, on: chargeback.voidedTime, rates: rates, currency: currency)
                    + "\n"
            }
        }
        if Self.overlap(orders) {
            out += "  (orders held at once share their rows: their delivery costs are not to be added up)\n"
        }
        return out
    }

    /// What the developer had received and the delivery cost, in the report currency when a rate says it.
    private static func lost(
        _ received: PlayAmount, _ spent: Money, fee: Money?, on time: Timestamp, rates: ExchangeRates, currency: CurrencyCode
    ) -> String {
        let feeText = fee.map { " + \($0) \(currency) fee" } ?? ""
        let noFee = fee == nil ? ", plus the bank's chargeback fee (give --chargeback-fee)" : ""
        guard let converted = try? rates.reportAmount(received.money, from: received.currency, onDay: time.dayNumber),
            let total = try? converted.adding(spent).adding(fee ?? .zero)
        else {
            return "\(amount(received)) received, taken back, + \(spent) \(currency) delivered\(feeText) (no rate for "
                + "\(received.currency) on that day to add them)\(noFee)"
        }
        return "\(converted) \(currency) received, taken back, + \(spent) \(currency) delivered\(feeText) = "
            + "\(total) \(currency)\(noFee)"
    }

    /// True when two orders' access windows share time (their rows count in both).
    private static func overlap(_ orders: [PlayOrderAccess]) -> Bool {
        let windows = orders.map { ($0.start, $0.end ?? .latestAccepted) }.sorted { $0.0 < $1.0 }
        return zip(windows, windows.dropFirst()).contains { $0.1 > $1.0 }
    }

    private static func who(_ source: PlayVoidSource) -> String {
        switch source {
        case .user: "the user"
        case .developer: "the developer"
        case .google: "Google"
        }
    }

    private static func amount(_ amount: PlayAmount) -> String { "\(amount.money) \(amount.currency)" }
}
