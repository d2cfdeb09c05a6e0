import Support

/// A Google Play order as the ledger is built from it: the account whose purchase it is, the
/// order as fetched, and its refunds and chargebacks by time, nothing after the as-of time.
///
/// The ledger reads its access from it (docs/domain.md rule 16) and the figures what was
/// refunded and charged back; a snapshot carries it beside the App Store's records.
package struct PlayHeldOrder: Sendable, Hashable, Codable {
    package var account: String
    package var order: PlayOrder
    package var voids: [PlayVoidedPurchase]
    /// When the server could first know the void that ended the order's access: the earliest
    /// voided-purchase notification naming the order at or after the void, else the void's time.
    package var voidNoticedAt: Timestamp?
    /// Google's pending refund reviews of the order, by notification time: what `respond --store
    /// play` answers and `report --play-journal` tells.
    package var reviews: [Review] = []

    /// A pending refund review notified for the order: its `pendingRefundToken` (the journal's
    /// key for it) and when it was notified.
    package struct Review: Sendable, Hashable, Codable {
        package var token: String
        package var notifiedAt: Timestamp

        package init(token: String, notifiedAt: Timestamp) {
            self.token = token
            self.notifiedAt = notifiedAt
        }
    }

    package init(account: String, order: PlayOrder, voids: [PlayVoidedPurchase], voidNoticedAt: Timestamp? = nil) {
        self.account = account
        self.order = order
        self.voids = voids
        self.voidNoticedAt = voidNoticedAt
    }
}
