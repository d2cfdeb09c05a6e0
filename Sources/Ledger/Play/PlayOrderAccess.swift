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

    /// What a chargeback took back of `developerRevenue`: the share of its units.
    package var chargedBack: PlayAmount? {
        guard chargeback != nil, let received = order.developerRevenue else { return nil }
        return share(of: received, units: chargedBackUnits)
    }

    /// The units the first chargeback took back: those it names, else every unit no void before
    /// it had taken (a refund of part of the order is not charged back again).
    package var chargedBackUnits: Int64 {
        guard let index = voids.firstIndex(where: \.isChargeback) else { return 0 }
        if let named = voids[index].voidedQuantity { return min(quantity, named) }
        var before: Int64 = 0
        for void in voids[..<index] { before += void.voidedQuantity ?? quantity }
        return max(0, quantity - before)
    }

    /// What the buyer paid for `units` of the order (what a refund of them gives back): the
    /// total's share, rounded half to even to the nano-unit, all of it for every unit; nil when
    /// the order gives no total.
    package func paid(units: Int64) throws -> PlayAmount? {
        guard let total = order.total else { return nil }
        guard quantity > 0, units < quantity else { return total }
        return PlayAmount(currency: total.currency, money: try total.money.scaled(by: units, over: quantity))
    }

    /// `units` of the order's `quantity` of `amount`, rounded toward zero to the nano-unit.
    private func share(of amount: PlayAmount, units: Int64) -> PlayAmount {
        guard quantity > 0, units != quantity else { return amount }
        let (product, overflow) = amount.money.nanos.multipliedReportingOverflow(by: units)
        let nanos = overflow ? amount.money.nanos / quantity * units : product / quantity
        return PlayAmount(currency: amount.currency, money: Money(nanos: nanos))
    }

    package init(order: PlayOrder, voids: [PlayVoidedPurchase]) {
        self.order = order
        self.voids = voids
    }

    package init(_ held: PlayHeldOrder) {
        self.init(order: held.order, voids: held.voids)
    }

    /// The orders whose purchase is `account`'s, by creation, each with its voids: matched by
    /// order id, else (a void naming none) by purchase token.
    ///
    /// What happened after `asOf` is left out, as for Apple's data: an order made later, a void later.
    package static func orders(of account: String, in input: PlayInput, asOf: Timestamp) -> [PlayOrderAccess] {
        held(in: input, asOf: asOf).orders.filter { $0.account == account }.map(PlayOrderAccess.init)
    }

    /// What `held` made of `play/`: the orders, and what it could not believe.
    package struct Held: Sendable {
        package var orders: [PlayHeldOrder] = []
        /// Voids dated before their order was made, or of an order with no unit left: one reject each.
        package var refused: [Reject] = []
        /// Orders of a license tester's purchase (no money changed hands): left out, as Apple's Sandbox is.
        package var testOrders = 0
    }

    /// Every order an account holds, by creation then id, with its voids by time and when the
    /// void that ended it was first known; nothing after `asOf`.
    ///
    /// A void names its order; one that names none is its token's order that was current when
    /// it was voided (the latest made by then: a subscription's renewals share a token). A void
    /// dated before its order was made, or made once no unit was left, is refused: the order
    /// cannot have been voided then, or again.
    package static func held(in input: PlayInput, asOf: Timestamp) -> Held {
        let accounts = PlayAccounts(input)
        var result = Held()
        let testTokens = Set(input.purchases.filter(\.isTest).compactMap(\.purchaseToken))
        let owned = input.orders.compactMap { order -> (String, PlayOrder)? in
            guard order.createTime <= asOf, let account = accounts.account(ofToken: order.purchaseToken) else { return nil }
            if testTokens.contains(order.purchaseToken) {
                result.testOrders += 1
                return nil
            }
            return (account, order)
        }
        .sorted {
            $0.1.createTime != $1.1.createTime ? $0.1.createTime < $1.1.createTime : $0.1.orderID.bytesPrecede($1.1.orderID)
        }
        var ordersOfToken: [String: [PlayOrder]] = [:]
        for (_, order) in owned { ordersOfToken[order.purchaseToken, default: []].append(order) }
        var voidsByOrder: [String: [PlayVoidedPurchase]] = [:]
        for void in input.voided where void.voidedTime <= asOf {
            if let order = void.orderID {
                voidsByOrder[order, default: []].append(void)
            } else if let orders = ordersOfToken[void.purchaseToken] {
                let current = orders.last { $0.createTime <= void.voidedTime } ?? orders[0]
                voidsByOrder[current.orderID, default: []].append(void)
            }
        }
        var notices: [String: [Timestamp]] = [:]
        var reviews: [String: [PlayHeldOrder.Review]] = [:]
        for notification in input.notifications where notification.eventTime <= asOf {
            guard let order = notification.orderID else { continue }
            if notification.kind == .voidedPurchase { notices[order, default: []].append(notification.eventTime) }
            if notification.kind == .pendingRefundReview, let token = notification.pendingRefundToken,
                !(reviews[order] ?? []).contains(where: { $0.token == token })
            {
                reviews[order, default: []].append(PlayHeldOrder.Review(token: token, notifiedAt: notification.eventTime))
            }
        }
        for (account, order) in owned {
            let candidates = (voidsByOrder[order.orderID] ?? []).sorted {
                $0.voidedTime != $1.voidedTime ? $0.voidedTime < $1.voidedTime : $0.source < $1.source
            }
            var voids: [PlayVoidedPurchase] = []
            var units: Int64 = 0
            let quantity = order.lines.reduce(0) { $0 + $1.quantity }
            for void in candidates {
                if void.voidedTime < order.createTime {
                    result.refused.append(
                        refusal(void, "voided before its order \(order.orderID) was made (\(order.createTime))"))
                } else if units >= quantity {
                    result.refused.append(refusal(void, "order \(order.orderID) had no unit left: voided already"))
                } else {
                    voids.append(void)
                    units += void.voidedQuantity ?? quantity
                }
            }
            var held = PlayHeldOrder(account: account, order: order, voids: voids)
            held.reviews = (reviews[order.orderID] ?? []).sorted {
                $0.notifiedAt != $1.notifiedAt ? $0.notifiedAt < $1.notifiedAt : $0.token < $1.token
            }
            if let voided = PlayOrderAccess(held).lastUnitVoided {
                held.voidNoticedAt = (notices[order.orderID] ?? []).filter { $0 >= voided }.min() ?? voided
            }
            result.orders.append(held)
        }
        result.refused.sort { $0.file != $1.file ? $0.file.bytesPrecede($1.file) : $0.line < $1.line }
        return result
    }

    private static func refusal(_ void: PlayVoidedPurchase, _ reason: String) -> Reject {
        Reject(
            file: void.source.file, line: void.source.line, field: "voidedTimeMillis",
            value: String(void.voidedTime.milliseconds),
            reason: reason)
    }
}
