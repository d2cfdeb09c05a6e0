import Support

/// A Real-time developer notification (`DeveloperNotification`): Google says a purchase changed,
/// not what it now is; the API's purchases and orders say that.
///
/// A pending refund review arrives only this way: its `pendingRefundToken` is what an answer names.
package struct PlayNotification: Sendable, Hashable, Codable {
    /// Which of the notification's objects it carries.
    package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case oneTimeProduct = "oneTimeProductNotification"
        case subscription = "subscriptionNotification"
        case voidedPurchase = "voidedPurchaseNotification"
        case pendingRefundReview = "pendingRefundReviewNotification"
        case test = "testNotification"
        /// An object this version does not know: kept and counted, acted on by none.
        case other
    }

    /// Pub/Sub's id of the message, when the line is the push body.
    package var messageID: String?
    package var packageName: String?
    package var eventTime: Timestamp
    package var kind: Kind
    /// The object's name when `kind` is `.other`.
    package var otherKind: String?
    /// `notificationType` of a one-time product or subscription notification, as Google numbers it.
    package var notificationType: Int64?
    package var purchaseToken: String?
    /// `sku` of a one-time product, `subscriptionId` of a subscription (absent in later versions).
    package var productID: String?
    package var orderID: String?
    /// A voided purchase's `productType` (1 subscription, 2 one-time) and `refundType`
    /// (1 whole, 2 part of the quantity).
    package var productType: Int64?
    package var refundType: Int64?
    /// What an answer to a pending refund review names (`orders.reviewrefund`).
    package var pendingRefundToken: String?
    package var source: SourceLocation

    /// What makes two copies the same notification: Pub/Sub may deliver one twice, and a server
    /// may keep it both as received and decoded.
    package var identity: String {
        [
            kind.rawValue, otherKind ?? "", String(eventTime.milliseconds), notificationType.map(String.init) ?? "",
            purchaseToken ?? "", orderID ?? "", pendingRefundToken ?? "",
        ].joined(separator: "\u{1F}")
    }

    /// One line of `play/notifications/`: a Pub/Sub push body (`{"message": {"data": ...}}`,
    /// the data base64) or a decoded `DeveloperNotification`.
    static func decode(_ bytes: UnsafeRawBufferPointer, at location: SourceLocation) -> Result<PlayNotification, JSONError> {
        Result(reading: {
            var cursor = JSONCursor(bytes)
            var message: UnsafeRawBufferPointer?
            try cursor.members { cursor, key in
                if key == "message" {
                    message = try cursor.valueBytes()
                } else {
                    try cursor.skip()
                }
            }
            try cursor.finish()
            // Without a push body's message, the line is read as the notification itself.
            return try message.map { try pushed($0, at: location) } ?? notification(bytes, at: location)
        })
    }

    /// The value a reject names: under `message.data.`, the field of the decoded notification,
    /// not the base64 that carries it.
    static func rejectedValue(in bytes: UnsafeRawBufferPointer, field: String) -> String {
        let prefix = "message.data."
        guard field.hasPrefix(prefix) else { return JSONValueAtPath.text(in: bytes, path: field) }
        var cursor = JSONCursor(bytes)
        var data: [UInt8]?
        try? cursor.members { cursor, key in
            guard key == "message", cursor.isObject() else { return try cursor.skip() }
            try cursor.members { cursor, key in
                guard key == "data", let text = try? cursor.optionalString() else { return try cursor.skip() }
                data = Base64URL.decode(Array(text.utf8))
            }
        }
        guard let data else { return "" }
        return data.withUnsafeBytes { JSONValueAtPath.text(in: $0, path: String(field.dropFirst(prefix.count))) }
    }

    /// The push body's `message`: its base64 `data` is the notification.
    private static func pushed(_ bytes: UnsafeRawBufferPointer, at location: SourceLocation) throws -> PlayNotification {
        var cursor = JSONCursor(bytes)
        var data: [UInt8]?
        var messageID: String?
        do {
            try cursor.members { cursor, key in
                if key == "data" {
                    guard let text = try cursor.optionalString(), let decoded = Base64URL.decode(Array(text.utf8)) else {
                        throw JSONError(reason: "not base64", field: "")
                    }
                    data = decoded
                } else if key == "messageId" || key == "message_id" {
                    messageID = try cursor.optionalString()
                } else {
                    try cursor.skip()
                }
            }
        } catch let error as JSONError {
            throw error.within("message")
        }
        guard let data else { throw JSONError(reason: "a push body carries the notification in data", field: "message.data") }
        do {
            // What the base64 carries is held to the same strict JSON as a line: a key given
            // twice inside it would otherwise let the last one win unseen.
            if String(validating: data, as: UTF8.self) == nil {
                throw JSONError(reason: "not UTF-8: Google's JSON is", field: "")
            }
            if let problem = data.withUnsafeBytes({ StrictJSON.problem(in: $0) }) { throw problem }
            var read = try data.withUnsafeBytes { try notification($0, at: location) }
            read.messageID = messageID
            return read
        } catch let error as JSONError {
            throw error.within("message.data")
        }
    }

    private static func notification(_ bytes: UnsafeRawBufferPointer, at location: SourceLocation) throws -> PlayNotification {
        var cursor = JSONCursor(bytes)
        var packageName: String?
        var eventTime: Timestamp?
        var found: PlayNotification?
        try cursor.members { cursor, key in
            if key == "packageName" {
                packageName = try cursor.optionalString()
            } else if key == "eventTimeMillis" {
                eventTime = try cursor.optionalTimestamp()
            } else if key == "version" {
                try cursor.skip()
            } else {
                let name = String(decoding: key.bytes, as: UTF8.self)
                let kind = Kind(rawValue: name) ?? .other
                // The notification is the object named `...Notification`; any other member is ignored.
                guard cursor.isObject(), kind != .other || name.hasSuffix("Notification") else {
                    try cursor.skip()
                    return
                }
                guard found == nil else {
                    throw JSONError(reason: "a notification carries one object; this one has two", field: "")
                }
                found = try object(&cursor, kind: kind, at: location)
                if kind == .other { found?.otherKind = name }
            }
        }
        try cursor.finish()
        guard let eventTime else { throw JSONError(reason: "the time of the event is required", field: "eventTimeMillis") }
        guard var found else {
            throw JSONError(
                reason: "no notification object (oneTimeProductNotification, subscriptionNotification, ...)", field: "")
        }
        found.packageName = packageName
        found.eventTime = eventTime
        if found.kind != .test && found.kind != .other, found.purchaseToken?.isEmpty ?? true {
            throw JSONError(reason: "a purchase token is required", field: found.kind.rawValue + ".purchaseToken")
        }
        if found.kind == .pendingRefundReview, found.pendingRefundToken?.isEmpty ?? true {
            throw JSONError(
                reason: "a pending refund review names its pendingRefundToken", field: found.kind.rawValue + ".pendingRefundToken"
            )
        }
        return found
    }

    private static func object(_ cursor: inout JSONCursor, kind: Kind, at location: SourceLocation) throws -> PlayNotification {
        var read = PlayNotification(eventTime: Timestamp(milliseconds: 0), kind: kind, source: location)
        try cursor.members { cursor, key in
            if key == "notificationType" {
                read.notificationType = try cursor.optionalLenientInteger()
            } else if key == "purchaseToken" {
                read.purchaseToken = try cursor.optionalIdentifier()
            } else if key == "sku" || key == "subscriptionId" || key == "productId" {
                read.productID = try cursor.optionalIdentifier()
            } else if key == "orderId" {
                read.orderID = try cursor.optionalIdentifier()
            } else if key == "productType" {
                read.productType = try cursor.optionalLenientInteger()
            } else if key == "refundType" {
                read.refundType = try cursor.optionalLenientInteger()
            } else if key == "pendingRefundToken" {
                read.pendingRefundToken = try cursor.optionalIdentifier()
            } else {
                try cursor.skip()
            }
        }
        return read
    }

    private init(eventTime: Timestamp, kind: Kind, source: SourceLocation) {
        self.eventTime = eventTime
        self.kind = kind
        self.source = source
    }
}
