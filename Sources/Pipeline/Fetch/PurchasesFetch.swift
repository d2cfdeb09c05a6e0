import AppStoreAPI
import Ingest
import PlayAPI
import Support

/// What `fetch purchases` asks Google for (`purchases.productsv2` and `purchases.subscriptionsv2`
/// by token), and where it lands: whose each purchase is (`obfuscatedExternalAccountId`).
package enum PurchasesFetch {
    /// A purchase token and which API knows it.
    package struct Wanted: Sendable, Hashable {
        package var token: String
        package var subscription: Bool

        package init(token: String, subscription: Bool) {
            self.token = token
            self.subscription = subscription
        }
    }

    /// What a fetch of purchases did.
    package struct Outcome: Sendable {
        package var file: String?
        package var purchases = 0
        /// Tokens Google does not know for this app (404).
        package var unknown: [String] = []
    }

    /// The tokens `input` names (notifications, voids, orders) that no purchase of it holds,
    /// by token, each with the API that knows it: a subscription's when a subscription
    /// notification, a subscription void or an order with a service period says so.
    package static func missing(in input: PlayInput) -> [Wanted] {
        var held = Set(input.purchases.compactMap(\.purchaseToken))
        let tokenOfOrder = Dictionary(
            input.orders.map { ($0.orderID, $0.purchaseToken) }, uniquingKeysWith: { first, _ in first })
        for purchase in input.purchases where purchase.purchaseToken == nil {
            for id in purchase.orderIDs { if let token = tokenOfOrder[id] { held.insert(token) } }
        }
        var subscription: [String: Bool] = [:]
        func name(_ token: String?, _ isSubscription: Bool) {
            guard let token, !token.isEmpty, !held.contains(token) else { return }
            subscription[token] = (subscription[token] ?? false) || isSubscription
        }
        for notification in input.notifications {
            name(notification.purchaseToken, notification.kind == .subscription || notification.productType == 1)
        }
        for void in input.voided { name(void.purchaseToken, false) }
        for order in input.orders { name(order.purchaseToken, order.lines.contains(where: \.isSubscription)) }
        return subscription.keys.sorted { $0.bytesPrecede($1) }.map { Wanted(token: $0, subscription: subscription[$0] ?? false) }
    }

    /// Each of `wanted` into `DIR/play/purchases/purchases-<now>.jsonl`, Google's answer a line
    /// with the token it was asked by added first (`purchaseToken`), written when the last is in.
    package static func fetch(
        _ api: PlayDeveloperAPI, data: String, packageName: String, wanted: [Wanted], now: Timestamp, dryRun: Bool,
        say: (String) -> Void
    ) throws -> Outcome {
        let name = "purchases-\(FetchCalls.compact(now)).jsonl"
        let destination = data + "/play/purchases/" + name
        let prefix = "/androidpublisher/v3/applications/" + PlayDeveloperAPI.component(packageName) + "/purchases/"
        func path(_ purchase: Wanted) -> String {
            prefix + (purchase.subscription ? "subscriptionsv2" : "productsv2") + "/tokens/"
                + PlayDeveloperAPI.component(purchase.token)
        }
        if dryRun {
            if let first = wanted.first {
                say(
                    "would send GET \(api.baseURL)\(path(first))\n  and \(wanted.count - 1) more, one a purchase, into \(destination)"
                )
            }
            return Outcome()
        }
        var outcome = Outcome()
        guard !wanted.isEmpty else { return outcome }
        return try AnswerFile.whole(data: data, folder: "play/purchases", name: name) { file in
            for purchase in wanted {
                switch try api.call("GET", path(purchase), body: [], deadline: Clock.now().adding(.hours(1))) {
                case .accepted(let response):
                    try file.append(try withToken(purchase.token, response.body, api: api), from: api)
                    outcome.purchases += 1
                case .refused(let status, _, _) where status == 404:
                    outcome.unknown.append(purchase.token)
                case let other:
                    throw FetchError.stopping(other, call: "GET " + path(purchase), api: api)
                }
            }
            outcome.file = try file.commit()
            return outcome
        }
    }

    /// Google's purchase object with `"purchaseToken": token` as its first member: neither
    /// answer carries the token it was asked by, and play/ matches purchases to orders by it.
    static func withToken(_ token: String, _ body: [UInt8], api: PlayDeveloperAPI) throws -> [UInt8] {
        var isPurchase = false
        do {
            try body.withUnsafeBytes { raw in
                var cursor = JSONCursor(raw)
                try cursor.members { cursor, key in
                    if key == "kind" {
                        let kind = try cursor.optionalString() ?? ""
                        isPurchase = PlayPurchase.Kind(rawValue: kind) != nil
                    } else {
                        try cursor.skip()
                    }
                }
                try cursor.finish()
            }
        } catch {
            throw FetchError(message: "Google's purchase answer is not the JSON it sends: \(api.shown("\(error)"))")
        }
        guard isPurchase, let open = body.firstIndex(of: UInt8(ascii: "{")) else {
            throw FetchError(message: "Google's answer is not a ProductPurchaseV2 or SubscriptionPurchaseV2 (its kind)")
        }
        let member = Array(JSONValue.object([("purchaseToken", .string(token))]).compact.utf8.dropLast())
        let rest = body[(open + 1)...]
        let empty = rest.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "}")
        return Array(body[..<open]) + member + (empty ? [] : [UInt8(ascii: ",")]) + Array(rest)
    }
}
