import Support

/// A purchase as the Play Developer API returns it, a one-time product's or a subscription's.
///
/// A one-time product's comes from `purchases.productsv2` (`ProductPurchaseV2`), a
/// subscription's from `purchases.subscriptionsv2` (`SubscriptionPurchaseV2`). It says whose it
/// is (`obfuscatedExternalAccountId`, what the app set at purchase) and what state it is in;
/// its orders say what was paid.
///
/// Neither response carries the purchase token it was fetched with: a line may add it as
/// `purchaseToken` (`refund-cost fetch purchases` does), else the purchase is matched to its
/// orders by order id.
package struct PlayPurchase: Sendable, Hashable, Codable {
    package enum Kind: String, Sendable, Hashable, Codable {
        case product = "androidpublisher#productPurchaseV2"
        case subscription = "androidpublisher#subscriptionPurchaseV2"
    }

    package var kind: Kind
    package var purchaseToken: String?
    /// The account the app named at purchase; nil when it named none.
    package var account: String?
    /// Order ids the purchase names: a product's `orderId`; a subscription's `latestOrderId`
    /// and each line's `latestSuccessfulOrderId`.
    package var orderIDs: [String]
    package var productIDs: [String]
    /// `purchaseStateContext.purchaseState` or `subscriptionState`, as Google writes it.
    package var rawState: String?
    /// `purchaseCompletionTime` or `startTime`.
    package var startTime: Timestamp?
    /// The latest `expiryTime` of a subscription's lines.
    package var expiryTime: Timestamp?
    /// The purchase this one replaced (an upgrade, a downgrade, a resubscription).
    package var linkedPurchaseToken: String?
    /// A license tester's purchase: no money changed hands.
    package var isTest: Bool
    package var source: SourceLocation

    /// One line of `play/purchases/`.
    static func decode(_ bytes: UnsafeRawBufferPointer, at location: SourceLocation) -> Result<PlayPurchase, JSONError> {
        Result(reading: {
            var cursor = JSONCursor(bytes)
            var kind: String?
            var token: String?
            var account: String?
            var orders: [String] = []
            var products: [String] = []
            var state: String?
            var start: Timestamp?
            var expiry: Timestamp?
            var linked: String?
            var isTest = false
            try cursor.members { cursor, key in
                if key == "kind" {
                    kind = try cursor.optionalString()
                } else if key == "purchaseToken" {
                    token = try cursor.optionalIdentifier()
                } else if key == "obfuscatedExternalAccountId" {
                    account = try cursor.optionalIdentifier()
                } else if key == "externalAccountIdentifiers" {
                    if cursor.null() { return }
                    try cursor.members { cursor, key in
                        if key == "obfuscatedExternalAccountId" {
                            account = try cursor.optionalIdentifier()
                        } else {
                            try cursor.skip()
                        }
                    }
                } else if key == "orderId" || key == "latestOrderId" {
                    if let order = try cursor.optionalIdentifier(), !order.isEmpty { orders.append(order) }
                } else if key == "productLineItem" || key == "lineItems" {
                    if cursor.null() { return }
                    try cursor.elements { cursor, _ in
                        try cursor.members { cursor, key in
                            if key == "productId" {
                                if let product = try cursor.optionalIdentifier(), !product.isEmpty { products.append(product) }
                            } else if key == "latestSuccessfulOrderId" {
                                if let order = try cursor.optionalIdentifier(), !order.isEmpty { orders.append(order) }
                            } else if key == "expiryTime" {
                                if let time = try cursor.optionalTimestamp() { expiry = max(expiry ?? time, time) }
                            } else {
                                try cursor.skip()
                            }
                        }
                    }
                } else if key == "purchaseStateContext" {
                    if cursor.null() { return }
                    try cursor.members { cursor, key in
                        if key == "purchaseState" {
                            state = try cursor.optionalString()
                        } else {
                            try cursor.skip()
                        }
                    }
                } else if key == "subscriptionState" {
                    state = try cursor.optionalString()
                } else if key == "purchaseCompletionTime" || key == "startTime" {
                    start = try cursor.optionalTimestamp()
                } else if key == "linkedPurchaseToken" {
                    linked = try cursor.optionalIdentifier()
                } else if key == "testPurchase" || key == "testPurchaseContext" {
                    isTest = !cursor.null()
                    if isTest { try cursor.skip() }
                } else {
                    try cursor.skip()
                }
            }
            try cursor.finish()
            guard let kind else {
                throw JSONError(
                    reason: "a purchase names its kind (androidpublisher#productPurchaseV2 or #subscriptionPurchaseV2)",
                    field: "kind")
            }
            guard let known = Kind(rawValue: kind) else {
                throw JSONError(
                    reason: "not a purchase this version reads (productPurchaseV2, subscriptionPurchaseV2)", field: "kind")
            }
            guard !products.isEmpty else {
                throw JSONError(
                    reason: "a purchase has at least one product", field: known == .product ? "productLineItem" : "lineItems")
            }
            var seen = Set<String>()
            return PlayPurchase(
                kind: known, purchaseToken: token?.isEmpty == true ? nil : token,
                account: account?.isEmpty == true ? nil : account,
                orderIDs: orders.filter { seen.insert($0).inserted }, productIDs: products, rawState: state, startTime: start,
                expiryTime: expiry, linkedPurchaseToken: linked?.isEmpty == true ? nil : linked, isTest: isTest, source: location)
        })
    }
}
