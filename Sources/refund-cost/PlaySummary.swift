import Ingest
import Support

/// Prints what `play/` of a `--data` folder holds, for `validate`, and what in it needs a look.
enum PlaySummary {
    static func print(_ input: PlayInput, accounts: PlayAccounts) {
        func line(_ label: String, _ value: String) {
            Swift.print("  " + Format.padRight(label, 44) + value)
        }
        let counts = input.counts
        Swift.print("")
        Swift.print("Google Play data:")
        let folders = [
            ("notifications", counts.lines.notifications), ("voided", counts.lines.voided), ("orders", counts.lines.orders),
            ("purchases", counts.lines.purchases),
        ]
        line("lines read, by folder", folders.map { "\($0.0) \(Format.count($0.1))" }.joined(separator: ", "))
        let kinds = PlayNotification.Kind.allCases.compactMap { kind in
            counts.notificationsByKind[kind.rawValue].map { "\(kind.rawValue) \(Format.count($0))" }
        }
        line("notifications by kind (copies too)", kinds.isEmpty ? "none" : kinds.joined(separator: ", "))
        line("copies dropped (read before)", Format.count(counts.duplicatesDropped))
        let subscriptionOrders = input.orders.filter { $0.lines.contains(where: \.isSubscription) }.count
        line(
            "orders: one-time / subscription",
            "\(Format.count(input.orders.count - subscriptionOrders)) / \(Format.count(subscriptionOrders))")
        let withAccount = input.orders.filter { accounts.account(ofToken: $0.purchaseToken) != nil }.count
        line("orders whose purchase names an account", Format.count(withAccount))
        let chargebacks = input.voided.filter(\.isChargeback).count
        let partial = input.voided.filter { $0.voidedQuantity != nil }.count
        line(
            "voided: all / chargebacks / partial",
            [input.voided.count, chargebacks, partial].map(Format.count).joined(separator: " / "))
        line("purchases: one-time / subscription", purchaseKinds(input))
    }

    /// What is not a rejected line but still not right, for `validate`'s list.
    static func toLookAt(_ input: PlayInput, accounts: PlayAccounts) -> [String] {
        var found: [String] = []
        let orderIDs = Set(input.orders.map(\.orderID))
        let tokens = Set(input.orders.map(\.purchaseToken))
        let noAccount = input.orders.filter { accounts.account(ofToken: $0.purchaseToken) == nil }
        if !noAccount.isEmpty {
            found.append(
                "\(Format.count(noAccount.count)) Play \(noAccount.count == 1 ? "order has" : "orders have") no account "
                    + "(\(examples(noAccount.map(\.orderID)))): no purchase in play/purchases/ names one "
                    + "(obfuscatedExternalAccountId) for its purchase token")
        }
        let unknownVoids = input.voided.filter { void in
            void.orderID.map { !orderIDs.contains($0) } ?? !tokens.contains(void.purchaseToken)
        }
        if !unknownVoids.isEmpty {
            found.append(
                "\(Format.count(unknownVoids.count)) voided "
                    + "\(unknownVoids.count == 1 ? "purchase names an order" : "purchases name orders") not in play/orders/ "
                    + "(\(examples(unknownVoids.map { $0.orderID ?? "token " + Reject.cut($0.purchaseToken) }))): "
                    + "refund-cost fetch orders fetches them, to know what was paid")
        }
        let reviews = input.notifications.filter { $0.kind == .pendingRefundReview }
        let unconfirmed = reviews.filter { review in review.orderID.map { !orderIDs.contains($0) } ?? true }
        if !unconfirmed.isEmpty {
            found.append(
                "\(Format.count(unconfirmed.count)) pending refund "
                    + "\(unconfirmed.count == 1 ? "review names an order" : "reviews name orders") not in play/orders/ "
                    + "(\(examples(unconfirmed.map { $0.orderID ?? "no order id" }))): an answer needs the order as fetched "
                    + "from Google (refund-cost fetch orders)")
        }
        // Google takes an answer within 24 hours of the notification.
        let now = Clock.now()
        let open = reviews.filter { AnswerWindow.play.deadline(of: $0.eventTime) > now }.sorted { $0.eventTime < $1.eventTime }
        if let first = open.first {
            found.append(
                "\(Format.count(open.count)) Google refund \(open.count == 1 ? "review is" : "reviews are") open now "
                    + "(\(examples(open.map { $0.orderID ?? "no order id" }))), the first until "
                    + "\(AnswerWindow.play.deadline(of: first.eventTime)): answer them with respond --store play "
                    + "before then (docs/respond.md)")
        }
        let packages = input.counts.notificationsByPackage.filter { !$0.key.isEmpty }
        if packages.count > 1 {
            let named = packages.sorted { $0.key.bytesPrecede($1.key) }.map { "\($0.key) \(Format.count($0.value))" }
            found.append(
                "play/notifications/ names \(packages.count) apps (\(named.joined(separator: ", "))): one data folder holds "
                    + "one app's data")
        }
        for conflict in accounts.conflicts {
            found.append(
                "purchase token \(Reject.cut(conflict.token)) is \(conflict.kept)'s and also \(conflict.other)'s "
                    + "(\(conflict.source)); the first is kept")
        }
        return found
    }

    /// The first few of `ids`, for a person to look up.
    private static func examples(_ ids: [String]) -> String {
        ids.prefix(3).joined(separator: ", ") + (ids.count > 3 ? ", ..." : "")
    }

    private static func purchaseKinds(_ input: PlayInput) -> String {
        let products = input.purchases.filter { $0.kind == .product }.count
        return "\(Format.count(products)) / \(Format.count(input.purchases.count - products))"
    }
}
