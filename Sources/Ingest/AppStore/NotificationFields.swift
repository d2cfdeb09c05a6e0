import Support

/// Every member a notification may hold, in any of its forms, gathered in one walk: a body as
/// Apple posts it (`signedPayload`), a decoded V2 payload, or a V1 body.
struct NotificationFields {
    var receivedAt: Timestamp?
    var notificationType: String?
    var subtype: String?
    var notificationUUID: String?
    var version: String?
    var signedDate: Timestamp?
    var environment: String?
    var transaction: TransactionFields?
    var renewal: RenewalFields?
    var consumptionRequestReason: String?
    var v1Type: String?
    var v1Receipts: [V1Receipt] = []
    var bundleID: String?
    var appAppleID: Int64?
    /// True once the fields came from a `signedPayload`, whose signature is then checked.
    var signed = false

    /// Reads the members of a notification object (a body, or the payload inside `signedPayload`).
    ///
    /// `verifier` checks a signed payload; nested JWS inside one are covered by it.
    mutating func read(_ cursor: inout JSONCursor, verifier: JWSVerifier) throws {
        try cursor.members { cursor, key in
            if key == "signedPayload" {
                try read(signedPayload: try cursor.stringBytes(), verifier: verifier)
            } else if key == "receivedAt" {
                receivedAt = try cursor.optionalTimestamp()
            } else if key == "notificationType" {
                notificationType = try cursor.optionalString()
            } else if key == "subtype" {
                subtype = try cursor.optionalString()
            } else if key == "notificationUUID" {
                notificationUUID = try cursor.optionalString()
            } else if key == "version" {
                version = try cursor.optionalString()
            } else if key == "signedDate" {
                signedDate = try cursor.optionalTimestamp()
            } else if key == "data" || key == "appData" {
                try readData(&cursor, verifier: signed ? nil : verifier)
            } else if key == "summary" {
                try readEnvironmentOnly(&cursor)
            } else if key == "externalPurchaseToken" {
                try readExternalPurchaseToken(&cursor)
            } else if try !readV1(key, &cursor) {
                try cursor.skip()
            }
        }
    }

    /// A compact JWS as this notification's signed payload: its fields read, its signature checked.
    mutating func read(signedPayload compact: UnsafeRawBufferPointer, verifier: JWSVerifier) throws {
        let payload: [UInt8]
        do { payload = try JWS.payload(of: compact) } catch {
            throw JSONError(reason: error.description, field: "")
        }
        signed = true
        try payload.withUnsafeBytes { bytes in
            var inner = JSONCursor(bytes)
            try read(&inner, verifier: verifier)
            try inner.finish()
        }
        try checkSignature(compact, verifier: verifier)
    }

    func checkSignature(_ compact: UnsafeRawBufferPointer, verifier: JWSVerifier) throws {
        do {
            try verifier.check(
                compact, claims: .init(signedDate: signedDate, bundleID: bundleID, appAppleID: appAppleID, kind: .notification))
        } catch {
            throw JSONError(reason: error.description, field: "")
        }
    }

    /// `data` (or `appData`): the environment, the app, the transaction and renewal info.
    ///
    /// `verifier` is nil inside a signed payload: its signature covers what it holds.
    private mutating func readData(_ cursor: inout JSONCursor, verifier: JWSVerifier?) throws {
        if cursor.null() { return }
        try cursor.members { cursor, key in
            if try readOrigin(key, &cursor) {
                return
            } else if key == "signedTransactionInfo" {
                if cursor.null() { return }
                transaction = try TransactionFields.read(&cursor, verifier: verifier)
            } else if key == "signedRenewalInfo" {
                if cursor.null() { return }
                renewal = try RenewalFields.read(&cursor, verifier: verifier)
            } else if key == "consumptionRequestReason" {
                consumptionRequestReason = try cursor.optionalString()
            } else {
                try cursor.skip()
            }
        }
    }

    /// `summary` of a RENEWAL_EXTENSION notification: only where it says it comes from.
    private mutating func readEnvironmentOnly(_ cursor: inout JSONCursor) throws {
        if cursor.null() { return }
        try cursor.members { cursor, key in
            if try !readOrigin(key, &cursor) { try cursor.skip() }
        }
    }

    /// The members that say whose data this is and from which environment, wherever they
    /// stand; false for any other member (left unread).
    private mutating func readOrigin(_ key: JSONKey, _ cursor: inout JSONCursor) throws -> Bool {
        if key == "environment" {
            environment = try cursor.optionalString()
        } else if key == "bundleId" {
            bundleID = try cursor.optionalString()
        } else if key == "appAppleId" {
            appAppleID = try cursor.optionalInteger()
        } else {
            return false
        }
        return true
    }

    /// An external purchase token: Apple marks Sandbox ones with a `SANDBOX_` id.
    private mutating func readExternalPurchaseToken(_ cursor: inout JSONCursor) throws {
        if cursor.null() { return }
        try cursor.members { cursor, key in
            if key == "externalPurchaseId", let id = try cursor.optionalString() {
                environment =
                    id.hasPrefix("SANDBOX_") ? AppStoreEnvironment.sandbox.rawValue : AppStoreEnvironment.production.rawValue
            } else if key == "bundleId" {
                bundleID = try cursor.optionalString()
            } else if key == "appAppleId" {
                appAppleID = try cursor.optionalInteger()
            } else {
                try cursor.skip()
            }
        }
    }

    /// The members of a V1 body; false leaves the value unread.
    private mutating func readV1(_ key: JSONKey, _ cursor: inout JSONCursor) throws -> Bool {
        if key == "notification_type" {
            v1Type = try cursor.optionalString()
        } else if key == "environment" {
            environment = try cursor.optionalString()
        } else if key == "unified_receipt" {
            try cursor.members { cursor, key in
                guard key == "latest_receipt_info", !cursor.null() else { return try cursor.skip() }
                try cursor.elements { cursor, _ in v1Receipts.append(try V1Receipt.object(&cursor)) }
            }
        } else {
            return false
        }
        return true
    }
}
