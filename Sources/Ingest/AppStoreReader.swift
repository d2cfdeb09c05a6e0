import Support

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

    /// Files verified by earlier runs (nil: verify everything, remember nothing).
    let verifiedFiles: VerifiedFiles?

    package init(options: AppStoreOptions, rejects: RejectLog, verifiedFiles: VerifiedFiles? = nil) {
        self.options = options
        self.rejects = rejects
        self.verifiedFiles = verifiedFiles
    }

    package func read(_ layout: InputLayout) throws -> AppStoreInput {
        // Decoding is most of the work and each file stands alone: files are decoded on all
        // cores, then kept in file and line order, so the result does not depend on threads.
        let files = layout.notificationFiles.map { ($0, true) } + layout.transactionFiles.map { ($0, false) }
        // Each distinct certificate chain is judged once, whichever thread meets it first.
        let verdicts = ChainVerdicts()
        let policy = options.signatures
        let known = verifiedFiles
        let decodedFiles = try Parallel.map(files.count, threads: FileSystem.processorCount) { index -> DecodedFile in
            let (path, isNotifications) = files[index]
            do {
                return try AppStoreReader.decodeChecked(
                    path, notifications: isNotifications, policy: policy, verdicts: verdicts, known: known)
            } catch LineReaderError.notUTF8, CSVError.notUTF8 {
                // A file that is not UTF-8 is a rejected input; the other files are still read.
                let reject = Reject(file: path, line: 1, field: "", value: "", reason: TextEncodingCheck.utf16Reason)
                return DecodedFile(path: path, items: [.rejected(reject)], sha256: try SHA256.file(path))
            }
        }
        for decoded in decodedFiles {
            input.counts.notificationLines += decoded.notificationLines
            input.counts.historyLines += decoded.historyLines
            input.checksums[decoded.path] = decoded.sha256
            input.counts.signatures.add(decoded.signatures)
            if decoded.fullyVerified { input.verifiedFiles.append((decoded.path, decoded.sha256, decoded.signatures)) }
            if decoded.fromRecord { input.counts.filesVerifiedEarlier += 1 }
            for item in decoded.items {
                switch item {
                case .notification(let notification):
                    keep(notification)
                case .history(let records):
                    for record in records {
                        input.counts.historyTransactions += 1
                        keep(record)
                    }
                case .rejected(let reject):
                    input.counts.rejectedLines += 1
                    try rejects.record(reject)
                }
            }
        }
        return input
    }

    /// What one file decoded to, in line order, before hygiene.
    private enum DecodedItem: Sendable {
        case notification(DecodedNotification)
        case history([TransactionRecord])
        case rejected(Reject)
    }

    private struct DecodedFile: Sendable {
        var path: String
        var items: [DecodedItem] = []
        var notificationLines = 0
        var historyLines = 0
        var sha256 = ""
        var signatures = SignatureCounts()
        /// Every signature in it was verified and none refused (now or by an earlier run).
        var fullyVerified = false
        /// Its signatures were verified by an earlier run (same bytes, same trust settings).
        var fromRecord = false
    }

    /// Decodes a file with its signatures checked, or, when an earlier run verified the very
    /// same bytes under the same settings, without: then the checksum taken while reading must
    /// match the record, or the file is read again with every check.
    private static func decodeChecked(
        _ path: String, notifications: Bool, policy: SignaturePolicy, verdicts: ChainVerdicts, known: VerifiedFiles?
    ) throws -> DecodedFile {
        func decode(_ policy: SignaturePolicy) throws -> DecodedFile {
            let verifier = JWSVerifier(policy: policy, verdicts: verdicts)
            var decoded: DecodedFile
            if !notifications {
                decoded = try decodeHistory(path, verifier: verifier)
            } else if path.lowercased().hasSuffix(".csv") {
                decoded = try decodeNotificationCSV(path, verifier: verifier)
            } else {
                decoded = try decodeNotificationLines(path, verifier: verifier)
            }
            decoded.signatures = verifier.counts
            decoded.fullyVerified = policy.verify && verifier.counts.rejected == 0
            return decoded
        }
        let fingerprint = policy.fingerprint
        if policy.verify, let entry = known?.entry(for: path, policy: fingerprint) {
            var unchecked = policy
            unchecked.verify = false
            var decoded = try decode(unchecked)
            if decoded.sha256 == entry.sha256 && decoded.signatures.rejected == 0 {
                decoded.signatures = SignatureCounts()
                decoded.signatures.verified = entry.verified
                decoded.signatures.unverifiedDecoded = entry.decoded
                decoded.signatures.unverifiedXcode = entry.xcode
                decoded.fullyVerified = true
                decoded.fromRecord = true
                return decoded
            }
        }
        return try decode(policy)
    }

    private static func decodeNotificationLines(_ path: String, verifier: JWSVerifier) throws -> DecodedFile {
        var file = DecodedFile(path: path)
        let hasher = SHA256()
        try LineReader.read(path: path, onBlock: hasher.update) { line, bytes in
            guard !bytes.isBlank else { return }
            file.notificationLines += 1
            switch decodeNotificationLine(bytes, at: SourceLocation(file: path, line: line), verifier: verifier) {
            case .success(let notification): file.items.append(.notification(notification))
            case .failure(let error): file.items.append(.rejected(reject(error, bytes.preview(), path, line)))
            }
        }
        file.sha256 = hasher.finish()
        return file
    }

    private static func decodeHistory(_ path: String, verifier: JWSVerifier) throws -> DecodedFile {
        var file = DecodedFile(path: path)
        let hasher = SHA256()
        try LineReader.read(path: path, onBlock: hasher.update) { line, bytes in
            guard !bytes.isBlank else { return }
            file.historyLines += 1
            do throws(AppStoreDecodingError) {
                file.items.append(
                    .history(try decodeHistoryLine(bytes, at: SourceLocation(file: path, line: line), verifier: verifier)))
            } catch {
                file.items.append(.rejected(reject(error, bytes.preview(), path, line)))
            }
        }
        file.sha256 = hasher.finish()
        return file
    }

    private static func reject(_ error: AppStoreDecodingError, _ value: String, _ path: String, _ line: Int) -> Reject {
        Reject(file: path, line: line, field: error.field, value: value, reason: error.reason)
    }

    private static func decodeNotificationCSV(_ path: String, verifier: JWSVerifier) throws -> DecodedFile {
        var file = DecodedFile(path: path)
        let hasher = SHA256()
        var payloadColumn: Int?
        var receivedColumn: Int?
        var headerSeen = false
        try CSVReader.read(path: path, onBlock: hasher.update) { record in
            guard headerSeen else {
                headerSeen = true
                let columns = HeaderColumns(record.strings)
                payloadColumn = columns.index("signed_payload")
                receivedColumn = columns.index("received_at")
                if payloadColumn == nil {
                    throw AppStoreInputError.missingColumn(file: path, column: "signed_payload", present: record.strings)
                }
                return
            }
            guard let payloadColumn else { return }
            file.notificationLines += 1
            let location = SourceLocation(file: path, line: record.line)
            guard payloadColumn < record.count else {
                file.items.append(
                    .rejected(
                        reject(
                            AppStoreDecodingError(
                                field: "signed_payload", reason: "row has \(record.count) fields, too few for signed_payload"),
                            "", path, record.line)))
                return
            }
            var receivedAt: Timestamp?
            if let receivedColumn, receivedColumn < record.count, !record[receivedColumn].isEmpty {
                guard let parsed = TimestampParser.parse(record[receivedColumn]) else {
                    file.items.append(
                        .rejected(
                            reject(
                                AppStoreDecodingError(field: "received_at", reason: "not a timestamp"),
                                record.string(receivedColumn), path, record.line)))
                    return
                }
                receivedAt = parsed
            }
            let signed = record.string(payloadColumn)
            do throws(AppStoreDecodingError) {
                file.items.append(
                    .notification(try decodeSignedNotification(signed, receivedAt: receivedAt, at: location, verifier: verifier)))
            } catch {
                file.items.append(.rejected(reject(error, String(signed.prefix(120)), path, record.line)))
            }
        }
        file.sha256 = hasher.finish()
        return file
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
