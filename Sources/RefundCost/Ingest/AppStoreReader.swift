/// Reads `notifications/*.jsonl|csv` and `transactions/*.jsonl` into an `AppStoreInput`.
///
/// Malformed lines (bad JSON, bad base64, a JWS without three segments, a transaction
/// without `transactionId`) go to the reject log; retries are dropped by `notificationUUID`,
/// keeping the earliest `receivedAt`; other environments and copies signed after the as-of
/// time are counted and left out.
package final class AppStoreReader {
    let options: AppStoreOptions
    let rejects: RejectLog
    private(set) var input = AppStoreInput()
    private var notificationIndexByUUID: [String: Int] = [:]

    package init(options: AppStoreOptions, rejects: RejectLog) {
        self.options = options
        self.rejects = rejects
    }

    package func read(_ layout: InputLayout) throws -> AppStoreInput {
        for path in layout.notificationFiles {
            if path.hasSuffix(".csv") {
                try readNotificationCSV(path)
            } else {
                try LineReader.read(path: path) { line, bytes in
                    guard !bytes.isBlank else { return }
                    input.counts.notificationLines += 1
                    try accept(decodeNotificationLine(bytes, at: SourceLocation(file: path, line: line)), bytes, path, line)
                }
            }
        }
        for path in layout.transactionFiles {
            try LineReader.read(path: path) { line, bytes in
                guard !bytes.isBlank else { return }
                input.counts.historyLines += 1
                do throws(AppStoreDecodingError) {
                    for record in try decodeHistoryLine(bytes, at: SourceLocation(file: path, line: line)) {
                        input.counts.historyTransactions += 1
                        keep(record)
                    }
                } catch {
                    try reject(error, bytes.preview(), path, line)
                }
            }
        }
        return input
    }

    private func accept(
        _ decoded: Result<DecodedNotification, AppStoreDecodingError>, _ bytes: UnsafeRawBufferPointer, _ path: String,
        _ line: Int
    ) throws {
        switch decoded {
        case .success(let notification): keep(notification)
        case .failure(let error): try reject(error, bytes.preview(), path, line)
        }
    }

    private func reject(_ error: AppStoreDecodingError, _ value: String, _ path: String, _ line: Int) throws {
        input.counts.rejectedLines += 1
        try rejects.record(Reject(file: path, line: line, field: error.field, value: value, reason: error.reason))
    }

    private func readNotificationCSV(_ path: String) throws {
        var payloadColumn: Int?
        var receivedColumn: Int?
        var headerSeen = false
        try CSVReader.read(path: path) { record in
            guard headerSeen else {
                headerSeen = true
                let names = record.strings.map { $0.trimmingSpaces.lowercased() }
                payloadColumn = names.firstIndex(of: "signed_payload")
                receivedColumn = names.firstIndex(of: "received_at")
                if payloadColumn == nil {
                    throw AppStoreInputError.missingColumn(file: path, column: "signed_payload", present: record.strings)
                }
                return
            }
            guard let payloadColumn else { return }
            input.counts.notificationLines += 1
            let location = SourceLocation(file: path, line: record.line)
            guard payloadColumn < record.count else {
                try reject(.init(field: "signed_payload", reason: "row has \(record.count) fields, too few for signed_payload"), "", path, record.line)
                return
            }
            var receivedAt: Timestamp?
            if let receivedColumn, receivedColumn < record.count, !record[receivedColumn].isEmpty {
                guard let parsed = TimestampParser.parse(record[receivedColumn]) else {
                    try reject(.init(field: "received_at", reason: "not a timestamp"), record.string(receivedColumn), path, record.line)
                    return
                }
                receivedAt = parsed
            }
            let signed = record.string(payloadColumn)
            let decoded = Result { () throws(AppStoreDecodingError) in
                try decodeSignedNotification(signed, receivedAt: receivedAt, at: location)
            }
            switch decoded {
            case .success(let notification): keep(notification)
            case .failure(let error): try reject(error, String(signed.prefix(120)), path, record.line)
            }
        }
    }

    // MARK: Hygiene

    private func isOtherEnvironment(_ raw: String?) -> Bool {
        guard let raw else { return false }
        if raw == options.environment.rawValue { return false }
        input.counts.excludedByEnvironment[raw, default: 0] += 1
        return true
    }

    private func keep(_ decoded: DecodedNotification) {
        let notification = decoded.notification
        if isOtherEnvironment(notification.rawEnvironment ?? notification.transaction?.rawEnvironment) { return }
        if notification.signedDate > options.asOf {
            input.counts.notificationsSignedAfterAsOf += 1
            return
        }
        if let index = notificationIndexByUUID[notification.uuid] {
            input.counts.duplicateNotifications += 1
            // A retry tells nothing new but may have been received earlier than the copy kept.
            if let received = notification.receivedAt,
                input.notifications[index].receivedAt.map({ received < $0 }) ?? true
            {
                input.notifications[index].receivedAt = received
            }
            return
        }
        notificationIndexByUUID[notification.uuid] = input.notifications.count
        input.notifications.append(notification)
        input.counts.notificationsByType[notification.rawType, default: 0] += 1
        if notification.version == "1" { input.counts.v1Notifications += 1 }
        if let transaction = notification.transaction { keep(transaction) }
        for transaction in decoded.otherTransactions { keep(transaction) }
    }

    private func keep(_ transaction: TransactionRecord) {
        if isOtherEnvironment(transaction.rawEnvironment) { return }
        if transaction.signedDate > options.asOf {
            input.counts.transactionCopiesSignedAfterAsOf += 1
            return
        }
        input.keep(transaction)
    }
}

/// Problems with a notification or history file as a whole.
package enum AppStoreInputError: Error, Sendable, Hashable, CustomStringConvertible {
    case missingColumn(file: String, column: String, present: [String])

    package var description: String {
        switch self {
        case .missingColumn(let file, let column, let present):
            "\(file):1: error: no '\(column)' column (header has: \(present.joined(separator: ", "))); a notification CSV needs signed_payload and may have received_at"
        }
    }
}
