import Support

/// A purchase Google voided (`VoidedPurchase` of the Voided Purchases API): refunded, charged
/// back or cancelled, whole or for part of its quantity.
package struct PlayVoidedPurchase: Sendable, Hashable, Codable {
    package var purchaseToken: String
    /// The order voided: a one-time purchase's, or one renewal's of a subscription.
    package var orderID: String?
    package var purchaseTime: Timestamp?
    package var voidedTime: Timestamp
    /// Who voided it, as Google numbers it (`PlayVoidSource`); kept when this version does not know it.
    package var rawSource: Int64?
    /// Why, as Google numbers it (`PlayVoidReason`).
    package var rawReason: Int64?
    /// The units refunded by a quantity-based partial refund; nil: the whole order.
    package var voidedQuantity: Int64?
    package var source: SourceLocation

    package var voidSource: PlayVoidSource? { rawSource.flatMap(PlayVoidSource.init(rawValue:)) }
    package var reason: PlayVoidReason? { rawReason.flatMap(PlayVoidReason.init(rawValue:)) }
    /// A chargeback: the buyer's bank took the money back, not a refund Google or the developer gave.
    package var isChargeback: Bool { reason == .chargeback }

    /// The voided purchases of one line of `play/voided/`: a page of `voidedpurchases.list`
    /// (`{"voidedPurchases": [...]}`) or one `VoidedPurchase` object.
    static func decode(_ bytes: UnsafeRawBufferPointer, at location: SourceLocation) -> [Result<PlayVoidedPurchase, JSONError>] {
        var results: [Result<PlayVoidedPurchase, JSONError>] = []
        do {
            var cursor = JSONCursor(bytes)
            var page: UnsafeRawBufferPointer?
            // Google leaves out what is empty: a page with no voided purchase is `{}` or its paging alone.
            var onlyPaging = true
            try cursor.members { cursor, key in
                if key == "voidedPurchases" {
                    page = try cursor.valueBytes()
                } else {
                    if !(key == "pageInfo" || key == "tokenPagination") { onlyPaging = false }
                    try cursor.skip()
                }
            }
            try cursor.finish()
            if page == nil && onlyPaging { return [] }
            if let page {
                var elements = JSONCursor(page)
                if elements.null() { return [] }
                try elements.elements { cursor, index in
                    let element = try cursor.valueBytes()
                    results.append(
                        Result(reading: { try read(element, at: location) }).mapError { $0.within("voidedPurchases[\(index)]") })
                }
                return results
            }
            // Not a page: the line is read as one voided purchase.
            return [Result(reading: { try read(bytes, at: location) })]
        } catch let error as JSONError {
            return results + [.failure(error)]
        } catch {
            return results + [.failure(JSONError(reason: "\(error)", field: ""))]
        }
    }

    private static func read(_ bytes: UnsafeRawBufferPointer, at location: SourceLocation) throws -> PlayVoidedPurchase {
        var cursor = JSONCursor(bytes)
        var token: String?
        var order: String?
        var purchased: Timestamp?
        var voided: Timestamp?
        var rawSource: Int64?
        var rawReason: Int64?
        var quantity: Int64?
        try cursor.members { cursor, key in
            if key == "purchaseToken" {
                token = try cursor.optionalIdentifier()
            } else if key == "orderId" {
                order = try cursor.optionalIdentifier()
            } else if key == "purchaseTimeMillis" {
                purchased = try cursor.optionalTimestamp()
            } else if key == "voidedTimeMillis" {
                voided = try cursor.optionalTimestamp()
            } else if key == "voidedSource" {
                rawSource = try cursor.optionalLenientInteger()
            } else if key == "voidedReason" {
                rawReason = try cursor.optionalLenientInteger()
            } else if key == "voidedQuantity" {
                quantity = try cursor.optionalLenientInteger()
            } else {
                try cursor.skip()
            }
        }
        try cursor.finish()
        guard let token, !token.isEmpty else { throw JSONError(reason: "a purchase token is required", field: "purchaseToken") }
        guard let voided else { throw JSONError(reason: "the time it was voided is required", field: "voidedTimeMillis") }
        if let quantity, !(1...PlayOrder.largestQuantity).contains(quantity) {
            throw JSONError(reason: "a voided quantity is 1 to 1,000,000", field: "voidedQuantity")
        }
        return PlayVoidedPurchase(
            purchaseToken: token, orderID: order?.isEmpty == true ? nil : order, purchaseTime: purchased, voidedTime: voided,
            rawSource: rawSource, rawReason: rawReason, voidedQuantity: quantity, source: location)
    }
}

/// Who voided a purchase (`voidedSource`).
package enum PlayVoidSource: Int64, Sendable, Hashable, CaseIterable {
    case user = 0
    case developer = 1
    case google = 2

    package var name: String {
        switch self {
        case .user: "user"
        case .developer: "developer"
        case .google: "google"
        }
    }
}

/// Why a purchase was voided (`voidedReason`).
package enum PlayVoidReason: Int64, Sendable, Hashable, CaseIterable {
    case other = 0
    case remorse = 1
    case notReceived = 2
    case defective = 3
    case accidentalPurchase = 4
    case fraud = 5
    case friendlyFraud = 6
    case chargeback = 7
    case unacknowledgedPurchase = 8

    package var name: String {
        switch self {
        case .other: "other"
        case .remorse: "remorse"
        case .notReceived: "not_received"
        case .defective: "defective"
        case .accidentalPurchase: "accidental_purchase"
        case .fraud: "fraud"
        case .friendlyFraud: "friendly_fraud"
        case .chargeback: "chargeback"
        case .unacknowledgedPurchase: "unacknowledged_purchase"
        }
    }
}
