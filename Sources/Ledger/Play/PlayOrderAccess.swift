import Ingest
import Support

/// One Google Play order as an account's access sees it: when access began, when it ended,
/// what was voided of it and why, and what the developer keeps of what it received.
package struct PlayOrderAccess: Sendable {
    package var order: PlayOrder
    /// Refunds and chargebacks of the order, by time.
    package var voids: [PlayVoidedPurchase]

    /// A subscription's service period starts it; a one-time product's order, its creation.
    package var start: Timestamp { order.lines.compactMap(\.servicePeriodStart).min() ?? order.createTime }
    /// When access ended: the void that left no unit (one of the whole order, or the partial
    /// refund that took the last unit), else a subscription's period end; nil for a one-time
    /// product with units left (it lasts).
    package var end: Timestamp? {
        let periodEnd = order.lines.compactMap(\.servicePeriodEnd).max()
        guard let voided = lastUnitVoided else { return periodEnd }
        return min(voided, periodEnd ?? voided)
    }

    /// When no unit was left: the first whole void, or the partial refund reaching `quantity`.
    package var lastUnitVoided: Timestamp? {
        var units: Int64 = 0
        for void in voids {
            units += void.voidedQuantity ?? quantity
            if units >= quantity { return void.voidedTime }
        }
        return nil
    }
    /// Units bought: every line's quantity.
    package var quantity: Int64 { order.lines.reduce(0) { $0 + $1.quantity } }
    /// The first void of the whole order (one naming no quantity).
    package var wholeVoid: PlayVoidedPurchase? { voids.first { $0.voidedQuantity == nil } }
    /// Units voided: all of them once the whole order is, else the partial refunds' sum (at most all).
    package var voidedUnits: Int64 {
        wholeVoid != nil ? quantity : min(quantity, voids.reduce(0) { $0 + ($1.voidedQuantity ?? 0) })
    }
    /// The first chargeback of the order: the bank took the money back.
    package var chargeback: PlayVoidedPurchase? { voids.first(where: \.isChargeback) }

    /// What the developer keeps of `developerRevenue`: its share of the units not voided,
    /// rounded toward zero to the nano-unit.
    package var keptRevenue: PlayAmount? {
        order.developerRevenue.map { share(of: $0, units: quantity - voidedUnits) }
    }

    /// What a chargeback took back of `developerRevenue`: the share of its units (all of them
    /// when it names no quantity).
    package var chargedBack: PlayAmount? {
        guard let chargeback, let received = order.developerRevenue else { return nil }
        return share(of: received, units: min(quantity, chargeback.voidedQuantity ?? quantity))
    }

    /// `units` of the order's `quantity` of `amount`, rounded toward zero to the nano-unit.
    private func share(of amount: PlayAmount, units: Int64) -> PlayAmount {
        guard quantity > 0, units != quantity else { return amount }
        let (product, overflow) = amount.money.nanos.multipliedReportingOverflow(by: units)
        let nanos = overflow ? amount.money.nanos / quantity * units : product / quantity
        return PlayAmount(currency: amount.currency, money: Money(nanos: nanos))
    }

    /// The orders whose purchase is `account`'s, by creation, each with its voids: matched by
    /// order id, else (a void naming none) by purchase token.
    ///
    /// What happened after `asOf` is left out, as for Apple's data: an order made later, a void later.
    package static func orders(of account: String, in input: PlayInput, asOf: Timestamp) -> [PlayOrderAccess] {
        let accounts = PlayAccounts(input)
        let owned = input.orders.filter { accounts.account(ofToken: $0.purchaseToken) == account && $0.createTime <= asOf }
        return owned.sorted {
            $0.createTime != $1.createTime ? $0.createTime < $1.createTime : $0.orderID.bytesPrecede($1.orderID)
        }
        .map { order in
            let voids = input.voided.filter { void in
                void.voidedTime <= asOf
                    && (void.orderID.map { $0 == order.orderID } ?? (void.purchaseToken == order.purchaseToken))
            }
            return PlayOrderAccess(order: order, voids: voids.sorted { $0.voidedTime < $1.voidedTime })
        }
    }
}
