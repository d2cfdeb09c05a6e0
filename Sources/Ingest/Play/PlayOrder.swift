import Support

/// An order as the Orders API returns it (`orders.get`, `orders.batchget`): what was bought,
/// what the buyer paid and the developer received, and what became of it.
///
/// One-time purchases have one order; a subscription has one for its purchase and one for each
/// renewal (`GPA.…..0`, `..1`, …), all with the subscription's purchase token.
package struct PlayOrder: Sendable, Hashable, Codable {
    package var orderID: String
    package var purchaseToken: String
    /// `state` as Google writes it (`PROCESSED`, `REFUNDED`, ...), kept when this version does not know it.
    package var rawState: String?
    package var createTime: Timestamp
    package var lastEventTime: Timestamp?
    /// What the buyer paid, tax included where the order says so.
    package var total: PlayAmount?
    /// What Google passed on to the developer, in the buyer's currency: what a chargeback takes back.
    package var developerRevenue: PlayAmount?
    package var lines: [Line]
    /// `orderHistory.refundEvent.eventTime`: when the whole order was refunded.
    package var refundTime: Timestamp?
    package var source: SourceLocation

    /// One product of the order.
    package struct Line: Sendable, Hashable, Codable {
        package var productID: String
        package var quantity: Int64
        /// A subscription's order pays for this period; nil for a one-time product.
        package var servicePeriodStart: Timestamp?
        package var servicePeriodEnd: Timestamp?
        package var total: PlayAmount?

        package var isSubscription: Bool { servicePeriodStart != nil || servicePeriodEnd != nil }
    }

    package var state: PlayOrderState? { rawState.flatMap(PlayOrderState.init(rawValue:)) }

    /// The most units a line may hold, and a void name: no sum of them overflows, and more is
    /// no purchase (Apple's quantity stops at 10,000).
    package static let largestQuantity: Int64 = 1_000_000
    /// An amount's largest units, either sign: a billion, as Apple's prices stop at.
    package static let largestUnits: Int64 = 1_000_000_000

    /// The orders of one line of `play/orders/`: an Order, or a `batchget` response (`{"orders": [...]}`).
    package static func decode(_ bytes: UnsafeRawBufferPointer, at location: SourceLocation) -> [Result<PlayOrder, JSONError>] {
        var list: UnsafeRawBufferPointer?
        var members = 0
        do {
            var cursor = JSONCursor(bytes)
            try cursor.members { cursor, key in
                members += 1
                if key == "orders" {
                    list = try cursor.valueBytes()
                } else {
                    try cursor.skip()
                }
            }
            try cursor.finish()
        } catch let error as JSONError {
            return [.failure(error)]
        } catch {
            return [.failure(JSONError(reason: "\(error)", field: ""))]
        }
        // `{}`: a batchget response with no order (Google leaves out what is empty). Any other
        // line without `orders` is read as one order.
        guard let list else { return members == 0 ? [] : [Result(reading: { try read(bytes, at: location) })] }
        var results: [Result<PlayOrder, JSONError>] = []
        let listed = Result<Void, JSONError>(reading: {
            var cursor = JSONCursor(list)
            if cursor.null() { return }
            try cursor.elements { cursor, index in
                let element = try cursor.valueBytes()
                results.append(Result(reading: { try read(element, at: location) }).mapError { $0.within("orders[\(index)]") })
            }
        })
        if case .failure(let error) = listed { results.append(.failure(error.within("orders"))) }
        return results
    }

    private static func read(_ bytes: UnsafeRawBufferPointer, at location: SourceLocation) throws -> PlayOrder {
        var cursor = JSONCursor(bytes)
        var orderID: String?
        var token: String?
        var state: String?
        var created: Timestamp?
        var lastEvent: Timestamp?
        var total: PlayAmount?
        var revenue: PlayAmount?
        var lines: [Line] = []
        var refunded: Timestamp?
        try cursor.members { cursor, key in
            if key == "orderId" {
                orderID = try cursor.optionalIdentifier()
            } else if key == "purchaseToken" {
                token = try cursor.optionalIdentifier()
            } else if key == "state" {
                state = try cursor.optionalString()
            } else if key == "createTime" {
                created = try cursor.optionalTimestamp()
            } else if key == "lastEventTime" {
                lastEvent = try cursor.optionalTimestamp()
            } else if key == "total" {
                total = cursor.null() ? nil : try PlayAmount.read(&cursor)
            } else if key == "developerRevenueInBuyerCurrency" {
                revenue = cursor.null() ? nil : try PlayAmount.read(&cursor)
            } else if key == "lineItems" {
                if !cursor.null() {
                    try cursor.elements { cursor, _ in lines.append(try line(&cursor)) }
                }
            } else if key == "orderHistory" {
                refunded = cursor.null() ? nil : try refundTime(&cursor)
            } else {
                try cursor.skip()
            }
        }
        try cursor.finish()
        guard let orderID, !orderID.isEmpty else { throw JSONError(reason: "an order id is required", field: "orderId") }
        guard let token, !token.isEmpty else { throw JSONError(reason: "a purchase token is required", field: "purchaseToken") }
        guard let created else { throw JSONError(reason: "the time the order was made is required", field: "createTime") }
        guard !lines.isEmpty else { throw JSONError(reason: "an order has at least one line item", field: "lineItems") }
        return PlayOrder(
            orderID: orderID, purchaseToken: token, rawState: state, createTime: created, lastEventTime: lastEvent, total: total,
            developerRevenue: revenue, lines: lines, refundTime: refunded, source: location)
    }

    private static func line(_ cursor: inout JSONCursor) throws -> Line {
        var product: String?
        var quantity: Int64 = 1
        var start: Timestamp?
        var end: Timestamp?
        var total: PlayAmount?
        try cursor.members { cursor, key in
            if key == "productId" {
                product = try cursor.optionalIdentifier()
            } else if key == "total" {
                total = cursor.null() ? nil : try PlayAmount.read(&cursor)
            } else if key == "oneTimePurchaseDetails" {
                if cursor.null() { return }
                try cursor.members { cursor, key in
                    if key == "quantity" {
                        quantity = try cursor.optionalLenientInteger() ?? 1
                    } else {
                        try cursor.skip()
                    }
                }
            } else if key == "subscriptionDetails" {
                if cursor.null() { return }
                try cursor.members { cursor, key in
                    if key == "servicePeriodStartTime" {
                        start = try cursor.optionalTimestamp()
                    } else if key == "servicePeriodEndTime" {
                        end = try cursor.optionalTimestamp()
                    } else {
                        try cursor.skip()
                    }
                }
            } else {
                try cursor.skip()
            }
        }
        guard let product, !product.isEmpty else { throw JSONError(reason: "a product id is required", field: "productId") }
        guard (1...PlayOrder.largestQuantity).contains(quantity) else {
            throw JSONError(reason: "a quantity is 1 to 1,000,000", field: "oneTimePurchaseDetails.quantity")
        }
        if let start, let end, end < start {
            throw JSONError(reason: "the service period ends before it starts", field: "subscriptionDetails.servicePeriodEndTime")
        }
        return Line(productID: product, quantity: quantity, servicePeriodStart: start, servicePeriodEnd: end, total: total)
    }

    /// `orderHistory.refundEvent.eventTime`, if the order was refunded whole.
    private static func refundTime(_ cursor: inout JSONCursor) throws -> Timestamp? {
        var time: Timestamp?
        try cursor.members { cursor, key in
            guard key == "refundEvent", !cursor.null() else { return try cursor.skip() }
            try cursor.members { cursor, key in
                if key == "eventTime" {
                    time = try cursor.optionalTimestamp()
                } else {
                    try cursor.skip()
                }
            }
        }
        return time
    }
}

/// An order's `state`.
package enum PlayOrderState: String, Sendable, Hashable, CaseIterable {
    case pending = "PENDING"
    case processed = "PROCESSED"
    case canceled = "CANCELED"
    case pendingRefund = "PENDING_REFUND"
    case partiallyRefunded = "PARTIALLY_REFUNDED"
    case refunded = "REFUNDED"
}
