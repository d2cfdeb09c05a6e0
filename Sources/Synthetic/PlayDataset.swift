import Ingest
import Support

/// Google Play's part of a generated dataset (`generate --stores apple,play`): accounts that
/// bought on Play, their orders, purchases, real-time developer notifications and voids, in
/// `play/` as a server and `refund-cost fetch` store them, and their delivery cost rows.
///
/// One Play account for every `accountShare` accounts asked, named `play-NNNNNN`, drawn from
/// a random stream of their own: the App Store part is the same bytes with or without them.
enum PlayDataset {
    static let accountShare = 4
    static let package = "com.example.app"
    /// A one-time pack's price and a month of the subscription, in nano-dollars.
    static let packPrice: Int64 = 4_990_000_000
    static let monthPrice: Int64 = 9_990_000_000
    /// What Google passes on: 85 % of the price.
    static let developerSharePercent: Int64 = 85
    static let month: Int64 = 30 * 86_400_000
    static let day: Int64 = 86_400_000

    /// What a run made, one list a folder.
    struct Files {
        var notifications: [(at: Int64, json: JSONValue)] = []
        var voided: [JSONValue] = []
        var orders: [JSONValue] = []
        var purchases: [JSONValue] = []
        var scenarios: [String: Int] = [:]
    }

    /// Writes `play/` under `root` and each Play account's cost rows into `costs`; returns the
    /// scenarios made, by name.
    static func generate(_ options: GeneratorOptions, costs: inout CostRowWriter, root: String) throws -> [String: Int] {
        var random = SeededRandom(seed: options.seed ^ 0x504C_4159_0000_0001)
        var files = Files()
        let count = max(1, options.accounts / accountShare)
        for index in 1...count {
            let account = "play-" + String(index).leftPadded(to: 6)
            let spans =
                random.chance(60)
                ? oneTime(account, index: index, options, &random, &files)
                : subscription(account, index: index, options, &random, &files)
            try costs.write(account: account, spans: spans, random: &random)
        }
        try write(files, root: root)
        return files.scenarios
    }

    /// The Play accounts' consent to share their use with the store that asks: three of every
    /// four agreed, before anything was bought, so `respond --store play` answers their reviews
    /// and skips the others'.
    static func consent(_ options: GeneratorOptions) -> [(account: String, consented: Bool, at: Int64)] {
        (1...max(1, options.accounts / accountShare)).map { index in
            ("play-" + String(index).leftPadded(to: 6), index % 4 != 0, options.windowStart - 90 * day)
        }
    }

    private static func orderID(_ index: Int, renewal: Int? = nil) -> String {
        "GPA.3\(String(index).leftPadded(to: 3).suffix(3))-\(String(index).leftPadded(to: 8).prefix(4))-"
            + "\(String(index).leftPadded(to: 8).suffix(4))-\(String(index).leftPadded(to: 5))"
            + (renewal.map { "..\($0)" } ?? "")
    }

    private static func token(_ index: Int, _ random: inout SeededRandom) -> String {
        "play-token-" + String(index) + "-" + String(random.next() & 0xFFFF_FFFF, radix: 16)
    }

    static func money(_ nanos: Int64) -> JSONValue {
        .object([
            ("currencyCode", .string("USD")), ("units", .string(String(nanos / Money.nanosPerUnit))),
            ("nanos", .integer(nanos % Money.nanosPerUnit)),
        ])
    }

    private static func time(_ milliseconds: Int64) -> JSONValue { .string(Timestamp(milliseconds: milliseconds).description) }

    private static func order(
        _ id: String, token: String, product: String, quantity: Int64, created: Int64, price: Int64, state: String,
        period: (Int64, Int64)? = nil
    ) -> JSONValue {
        let total = price * quantity
        var line: [(String, JSONValue)] = [("productId", .string(product)), ("total", money(total))]
        if let period {
            line.append(
                (
                    "subscriptionDetails",
                    .object([("servicePeriodStartTime", time(period.0)), ("servicePeriodEndTime", time(period.1))])
                ))
        } else {
            line.append(("oneTimePurchaseDetails", .object([("quantity", .integer(quantity))])))
        }
        return .object([
            ("orderId", .string(id)), ("purchaseToken", .string(token)), ("state", .string(state)), ("createTime", time(created)),
            ("lastEventTime", time(created)), ("total", money(total)),
            ("developerRevenueInBuyerCurrency", money(total * developerSharePercent / 100)),
            ("lineItems", .array([.object(line)])),
        ])
    }

    private static func void(
        _ order: String, token: String, purchased: Int64, at: Int64, reason: Int64, source: Int64, quantity: Int64?
    )
        -> JSONValue
    {
        var members: [(String, JSONValue)] = [
            ("kind", .string("androidpublisher#voidedPurchase")), ("purchaseToken", .string(token)), ("orderId", .string(order)),
            ("purchaseTimeMillis", .string(String(purchased))), ("voidedTimeMillis", .string(String(at))),
            ("voidedSource", .integer(source)), ("voidedReason", .integer(reason)),
        ]
        if let quantity { members.append(("voidedQuantity", .integer(quantity))) }
        return .object(members)
    }

    private static func notify(_ files: inout Files, at: Int64, _ name: String, _ members: [(String, JSONValue)]) {
        files.notifications.append(
            (
                at,
                .object([
                    ("version", .string("1.0")), ("packageName", .string(package)), ("eventTimeMillis", .string(String(at))),
                    (name, .object([("version", .string("1.0"))] + members)),
                ])
            ))
    }

    /// A pack of one to three units: kept, refunded, refunded in part, charged back, or under a
    /// refund review.
    private static func oneTime(
        _ account: String, index: Int, _ options: GeneratorOptions, _ random: inout SeededRandom, _ files: inout Files
    ) -> [ServedSpan] {
        let created = options.windowStart + random.below(max(1, options.windowEnd - options.windowStart - 3 * day))
        let quantity = Int64([1, 2, 3][random.weighted([70, 20, 10])])
        let id = orderID(index)
        let token = token(index, &random)
        var outcome = ["kept", "refund", "partial_refund", "chargeback", "refund_review"][random.weighted([70, 10, 5, 10, 5])]
        if outcome == "partial_refund" && quantity == 1 { outcome = "refund" }
        var end = options.windowEnd
        var state = "PROCESSED"
        let product: (String, JSONValue) = ("sku", .string("gems_pack"))
        notify(
            &files, at: created, "oneTimeProductNotification",
            [("notificationType", .integer(1)), ("purchaseToken", .string(token)), product])
        switch outcome {
        case "refund", "partial_refund", "chargeback":
            let at = outcome == "chargeback" ? created + random.between(10, 25) * day : created + random.between(1, 5) * day
            guard at < options.windowEnd else {
                outcome = "kept"
                break
            }
            let partial = outcome == "partial_refund"
            let reason: Int64 = outcome == "chargeback" ? 7 : 1
            let source: Int64 = outcome == "chargeback" ? 2 : 0
            files.voided.append(
                void(id, token: token, purchased: created, at: at, reason: reason, source: source, quantity: partial ? 1 : nil))
            notify(
                &files, at: at, "voidedPurchaseNotification",
                [
                    ("purchaseToken", .string(token)), ("orderId", .string(id)), ("productType", .integer(2)),
                    ("refundType", .integer(partial ? 2 : 1)),
                ])
            state = partial ? "PARTIALLY_REFUNDED" : "REFUNDED"
            if !partial { end = at }
        case "refund_review":
            notify(
                &files, at: created + 2 * day, "pendingRefundReviewNotification",
                [("purchaseToken", .string(token)), ("orderId", .string(id)), ("pendingRefundToken", .string("prt-" + token))])
        default:
            break
        }
        files.scenarios["play_" + outcome, default: 0] += 1
        files.orders.append(
            order(id, token: token, product: "gems_pack", quantity: quantity, created: created, price: packPrice, state: state))
        files.purchases.append(
            .object([
                ("kind", .string("androidpublisher#productPurchaseV2")), ("purchaseToken", .string(token)),
                ("orderId", .string(id)), ("obfuscatedExternalAccountId", .string(account)),
                ("productLineItem", .array([.object([("productId", .string("gems_pack"))])])),
                ("purchaseStateContext", .object([("purchaseState", .string("PURCHASED"))])),
                ("purchaseCompletionTime", time(created)),
            ]))
        return [ServedSpan(from: created, to: end)]
    }

    /// A monthly subscription from some day of the window: renewed to the end, cancelled after
    /// some months, or revoked (its latest month refunded whole by the developer).
    private static func subscription(
        _ account: String, index: Int, _ options: GeneratorOptions, _ random: inout SeededRandom, _ files: inout Files
    ) -> [ServedSpan] {
        let start = options.windowStart + random.below(max(1, (options.windowEnd - options.windowStart) / 2))
        let token = token(index, &random)
        let outcome = ["renewing", "cancelled", "revoked"][random.weighted([75, 15, 10])]
        var periods: [(Int64, Int64)] = []
        var from = start
        while from < options.windowEnd {
            periods.append((from, from + month))
            from += month
        }
        if outcome == "cancelled", periods.count > 1 { periods.removeLast(Int(random.between(1, Int64(periods.count - 1)))) }
        var end = periods.last.map(\.1) ?? start
        var lastOrder = orderID(index)
        for (number, period) in periods.enumerated() {
            let id = orderID(index, renewal: number == 0 ? nil : number)
            lastOrder = id
            let revoked = outcome == "revoked" && number == periods.count - 1
            files.orders.append(
                order(
                    id, token: token, product: "pro_monthly", quantity: 1, created: period.0, price: monthPrice,
                    state: revoked ? "REFUNDED" : "PROCESSED", period: period))
            notify(
                &files, at: period.0, "subscriptionNotification",
                [("notificationType", .integer(number == 0 ? 4 : 2)), ("purchaseToken", .string(token))])
        }
        let state: String
        switch outcome {
        case "revoked":
            let last = periods.last ?? (start, start + month)
            let at = min(last.0 + random.between(1, 10) * day, options.windowEnd - 1)
            files.voided.append(void(lastOrder, token: token, purchased: last.0, at: at, reason: 0, source: 1, quantity: nil))
            notify(
                &files, at: at, "subscriptionNotification",
                [("notificationType", .integer(12)), ("purchaseToken", .string(token))])
            notify(
                &files, at: at, "voidedPurchaseNotification",
                [
                    ("purchaseToken", .string(token)), ("orderId", .string(lastOrder)), ("productType", .integer(1)),
                    ("refundType", .integer(1)),
                ])
            end = at
            state = "SUBSCRIPTION_STATE_EXPIRED"
        case "cancelled":
            let cancelled = max(start, end - random.between(1, 20) * day)
            notify(
                &files, at: cancelled, "subscriptionNotification",
                [("notificationType", .integer(3)), ("purchaseToken", .string(token))])
            if end < options.windowEnd {
                notify(
                    &files, at: end, "subscriptionNotification",
                    [("notificationType", .integer(13)), ("purchaseToken", .string(token))])
            }
            state = end < options.windowEnd ? "SUBSCRIPTION_STATE_EXPIRED" : "SUBSCRIPTION_STATE_CANCELED"
        default:
            state = "SUBSCRIPTION_STATE_ACTIVE"
        }
        files.scenarios["play_subscription_" + outcome, default: 0] += 1
        files.purchases.append(
            .object([
                ("kind", .string("androidpublisher#subscriptionPurchaseV2")), ("purchaseToken", .string(token)),
                ("startTime", time(start)), ("subscriptionState", .string(state)), ("latestOrderId", .string(lastOrder)),
                ("externalAccountIdentifiers", .object([("obfuscatedExternalAccountId", .string(account))])),
                (
                    "lineItems",
                    .array([
                        .object([
                            ("productId", .string("pro_monthly")), ("expiryTime", time(end)),
                            ("latestSuccessfulOrderId", .string(lastOrder)),
                        ])
                    ])
                ),
            ]))
        return [ServedSpan(from: start, to: end)]
    }

    /// The four folders: notifications as Pub/Sub push bodies in the order they happened,
    /// voids a `voidedpurchases.list` page of up to 1,000 a line, orders a `batchget` answer of
    /// up to 100 a line, purchases one a line with the token they were fetched by.
    private static func write(_ files: Files, root: String) throws {
        let folders = ["notifications", "voided", "orders", "purchases"]
        for folder in folders { try FileSystem.createDirectory(root + "/play/" + folder) }
        var pushed: [String] = []
        let ordered = files.notifications.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
        for (number, notification) in ordered.enumerated() {
            let data = Base64URL.encodeStandard(Array(notification.element.json.compact.utf8))
            pushed.append(
                JSONValue.object([
                    (
                        "message",
                        .object([
                            ("data", .string(data)), ("messageId", .string(String(number + 1))),
                            ("publishTime", time(notification.element.at)),
                        ])
                    ), ("subscription", .string("projects/example/subscriptions/play-rtdn")),
                ]).compact)
        }
        func pages(_ items: [JSONValue], of size: Int, as key: String) -> [String] {
            stride(from: 0, to: items.count, by: size).map { start in
                JSONValue.object([(key, .array(Array(items[start..<min(start + size, items.count)])))]).compact
            }
        }
        let contents = [
            ("notifications/rtdn.jsonl", pushed), ("voided/voided.jsonl", pages(files.voided, of: 1000, as: "voidedPurchases")),
            ("orders/orders.jsonl", pages(files.orders, of: 100, as: "orders")),
            ("purchases/purchases.jsonl", files.purchases.map(\.compact)),
        ]
        for (path, lines) in contents {
            let file = try AtomicFileWriter(path: root + "/play/" + path)
            try file.append(lines.map { $0 + "\n" }.joined())
            try file.commit()
        }
    }
}
