import Ingest
import Support

/// A Google Play order as a transaction of the ledger (docs/domain.md rule 16): held by its
/// account, bought by it (Play shares no in-app purchase with a family), granting access from
/// its start to its end, so that every class of rule 6 applies to its account's cost rows.
package enum PlayTransaction {
    /// The record the ledger reads of `held`.
    ///
    /// - The id is the order id; renewals of a subscription share the first order of their
    ///   purchase token as their original transaction, `originalOrder`.
    /// - Access starts at the service period's start or the order's creation; a subscription's
    ///   order expires at its period's end; a one-time product's order takes its type from
    ///   products.csv, and lasts (or draws credits, for a consumable with credits).
    /// - It is revoked when a void leaves no unit, and known then: the first voided-purchase
    ///   notification naming it, else the void itself.
    /// - The price is the order's total, to the milliunit.
    package static func record(_ held: PlayHeldOrder, originalOrder: String) -> TransactionRecord {
        let access = PlayOrderAccess(held)
        let order = held.order
        let subscription = order.lines.contains(where: \.isSubscription)
        let revoked = access.lastUnitVoided
        let total = order.total
        return TransactionRecord(
            transactionID: order.orderID, originalTransactionID: originalOrder, productID: order.lines.first?.productID ?? "",
            purchaseDate: access.start, expiresDate: subscription ? order.lines.compactMap(\.servicePeriodEnd).max() : nil,
            quantity: Int(clamping: access.quantity), rawType: subscription ? ProductType.autoRenewable.rawValue : nil,
            appAccountToken: nil, rawOwnership: Ownership.purchased.rawValue,
            signedDate: revoked.map { held.voidNoticedAt ?? $0 } ?? order.createTime, revocationDate: revoked,
            rawRevocationReason: nil, rawRevocationType: nil, revocationPercentage: nil, isUpgraded: false,
            rawEnvironment: nil, price: total.map { $0.money.nanos / 1_000_000 }, currency: total?.currency.description,
            source: order.source, store: .googlePlay)
    }

    /// Every order of `input` an account holds as of `asOf`, with its record; what `held`
    /// refused and left out beside them.
    package static func all(in input: PlayInput, asOf: Timestamp)
        -> (orders: [(held: PlayHeldOrder, record: TransactionRecord)], refused: [Reject], testOrders: Int)
    {
        let held = PlayOrderAccess.held(in: input, asOf: asOf)
        // `held` is by creation: the first order of a token is its subscription's first.
        var first: [String: String] = [:]
        for order in held.orders where first[order.order.purchaseToken] == nil {
            first[order.order.purchaseToken] = order.order.orderID
        }
        let orders = held.orders.map { ($0, record($0, originalOrder: first[$0.order.purchaseToken] ?? $0.order.orderID)) }
        return (orders, held.refused, held.testOrders)
    }
}
