import Support

/// What one line of `notifications/*.jsonl` held: one notification, or a page of Apple's
/// notification history (each entry decoded or refused on its own), and the page's paging.
package struct NotificationLine: Sendable {
    package var results: [Result<DecodedNotification, AppStoreDecodingError>]
    package var page: HistoryPage?
}

/// Decodes one line of `notifications/*.jsonl`: a Get Notification History page
/// (`notificationHistory[]`), a V2 body (`signedPayload`), a decoded V2 payload, or a V1 body.
package func decodeNotificationLine(
    _ bytes: UnsafeRawBufferPointer, at location: SourceLocation, verifier: JWSVerifier
) -> NotificationLine {
    if contains(bytes, "\"notificationHistory\"") {
        do {
            if let page = try notificationHistoryPage(bytes, at: location, verifier: verifier) { return page }
        } catch {
            // A page that is not valid JSON says why, not that it is no notification.
            return NotificationLine(results: [.failure(AppStoreDecodingError(error))], page: nil)
        }
    }
    let single = Result { () throws(AppStoreDecodingError) in
        var fields = NotificationFields()
        do {
            var cursor = JSONCursor(bytes)
            try fields.read(&cursor, verifier: verifier)
            try cursor.finish()
        } catch {
            throw AppStoreDecodingError(error)
        }
        if !fields.signed {
            let claims = JWSVerifier.Claims(
                signedDate: fields.signedDate, bundleID: fields.bundleID, appAppleID: fields.appAppleID, kind: .notification)
            do throws(SignatureError) {
                // V1 bodies name no app the way V2 payloads do: only V2 is held to --bundle-id.
                try verifier.countDecoded(claims: fields.notificationType != nil ? claims : nil)
            } catch {
                throw AppStoreDecodingError(field: "", reason: error.description)
            }
        }
        if fields.notificationType != nil { return try makeNotification(fields, at: location) }
        if fields.v1Type != nil { return try makeV1Notification(fields, digest: SHA256.digest(bytes), at: location) }
        throw AppStoreDecodingError(
            field: "",
            reason: "not a notification: no notificationHistory, signedPayload, notificationType or notification_type")
    }
    return NotificationLine(results: [single], page: nil)
}

/// A Get Notification History page; nil when the line is not one (then it is read as a single
/// notification).
///
/// Each entry is read like a notification the server received: its
/// `receivedAt` is the first successful send attempt, if there was one.
private func notificationHistoryPage(
    _ bytes: UnsafeRawBufferPointer, at location: SourceLocation, verifier: JWSVerifier
) throws -> NotificationLine? {
    var results: [Result<DecodedNotification, AppStoreDecodingError>] = []
    var page = HistoryPage(hasMore: false, paginationToken: nil)
    var isPage = false
    var cursor = JSONCursor(bytes)
    try cursor.members { cursor, key in
        if key == "notificationHistory" {
            isPage = true
            try cursor.elements { cursor, index in
                // Each entry is read from its own bytes: a bad one is refused alone, the others read.
                var entry = JSONCursor(try cursor.valueBytes())
                results.append(historyEntry(&entry, index: index, at: location, verifier: verifier))
            }
        } else if key == "hasMore" {
            page.hasMore = try cursor.bool()
        } else if key == "paginationToken" {
            page.paginationToken = try cursor.optionalString()
        } else {
            try cursor.skip()
        }
    }
    try cursor.finish()
    return isPage ? NotificationLine(results: results, page: page) : nil
}

/// One `{sendAttempts[], signedPayload}` entry of a history page; the cursor moves past it
/// whatever it holds, so one bad entry leaves the others readable.
private func historyEntry(
    _ cursor: inout JSONCursor, index: Int, at location: SourceLocation, verifier: JWSVerifier
) -> Result<DecodedNotification, AppStoreDecodingError> {
    var fields = NotificationFields()
    var delivered: Timestamp?
    var failure: (any Error)?
    do {
        try cursor.members { cursor, key in
            if key == "signedPayload" {
                let compact = try cursor.stringBytes()
                do { try fields.read(signedPayload: compact, verifier: verifier) } catch { failure = error }
            } else if key == "sendAttempts", !cursor.null() {
                try cursor.elements { cursor, _ in
                    let attempt = try SendAttempt.object(&cursor)
                    if attempt.succeeded, delivered.map({ attempt.date < $0 }) ?? true { delivered = attempt.date }
                }
            } else {
                try cursor.skip()
            }
        }
    } catch {
        return .failure(AppStoreDecodingError(error).within("notificationHistory[\(index)]"))
    }
    if let failure { return .failure(AppStoreDecodingError(failure).within("notificationHistory[\(index)].signedPayload")) }
    fields.receivedAt = delivered
    guard fields.signed else {
        return .failure(AppStoreDecodingError(field: "notificationHistory[\(index)]", reason: "an entry without signedPayload"))
    }
    return Result { () throws(AppStoreDecodingError) in try makeNotification(fields, at: location) }
        .mapError { $0.within("notificationHistory[\(index)]") }
}

/// One send attempt of a history entry: when Apple tried, and whether the server answered.
private struct SendAttempt {
    var date = Timestamp(milliseconds: 0)
    var succeeded = false

    static func object(_ cursor: inout JSONCursor) throws -> SendAttempt {
        var attempt = SendAttempt()
        try cursor.members { cursor, key in
            if key == "attemptDate" {
                attempt.date = try cursor.timestamp()
            } else if key == "sendAttemptResult" {
                attempt.succeeded = try cursor.optionalString() == "SUCCESS"
            } else {
                try cursor.skip()
            }
        }
        return attempt
    }
}

/// Decodes a `signed_payload` from a notification CSV export.
func decodeSignedNotification(
    _ signed: String, receivedAt: Timestamp?, at location: SourceLocation, verifier: JWSVerifier
) throws(AppStoreDecodingError) -> DecodedNotification {
    var fields = NotificationFields()
    var text = signed
    do {
        try text.withUTF8 { utf8 in try fields.read(signedPayload: UnsafeRawBufferPointer(utf8), verifier: verifier) }
    } catch let error as JSONError {
        throw AppStoreDecodingError(field: error.field.isEmpty ? "signed_payload" : error.field, reason: error.reason)
    } catch {
        throw AppStoreDecodingError(error)
    }
    fields.receivedAt = receivedAt ?? fields.receivedAt
    guard fields.notificationType != nil else {
        throw AppStoreDecodingError(field: "notificationType", reason: "missing")
    }
    return try makeNotification(fields, at: location)
}

func makeNotification(_ fields: NotificationFields, at location: SourceLocation) throws(AppStoreDecodingError)
    -> DecodedNotification
{
    guard let uuid = fields.notificationUUID, !uuid.isEmpty else {
        throw AppStoreDecodingError(field: "notificationUUID", reason: "missing: retries cannot be told apart without it")
    }
    guard let type = fields.notificationType else {
        throw AppStoreDecodingError(field: "notificationType", reason: "missing")
    }
    guard let signedDate = fields.signedDate else {
        throw AppStoreDecodingError(field: "signedDate", reason: "missing: the as-of cut-off needs it")
    }
    var transaction: TransactionRecord?
    if let transactionFields = fields.transaction {
        do {
            transaction = try transactionFields.record(fallbackSignedDate: signedDate, at: location)
        } catch {
            throw AppStoreDecodingError(field: "data.signedTransactionInfo." + error.field, reason: error.reason)
        }
    }
    let renewal = fields.renewal?.record(transactionID: transaction?.transactionID, fallbackSignedDate: signedDate, at: location)
    let notification = NotificationRecord(
        uuid: uuid, rawType: type, subtype: fields.subtype, version: fields.version ?? "2.0", signedDate: signedDate,
        receivedAt: fields.receivedAt, rawEnvironment: fields.environment, transaction: transaction.map(NotifiedTransaction.init),
        rawConsumptionRequestReason: fields.consumptionRequestReason, source: location)
    return DecodedNotification(notification: notification, transaction: transaction, renewal: renewal)
}
