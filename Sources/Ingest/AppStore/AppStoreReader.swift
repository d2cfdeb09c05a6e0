import Support

/// Reads `notifications/*.jsonl|csv` and `transactions/*.jsonl` into an `AppStoreInput`.
///
/// Malformed lines (bad JSON, bad base64, a JWS that fails its checks, a transaction without
/// `transactionId`) go to the reject log; retries are dropped by `notificationUUID`, keeping
/// the earliest `receivedAt`; other environments and copies signed after the as-of time are
/// counted and left out.
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
            return try DecodedFile.decodeChecked(
                path, notifications: isNotifications, policy: policy, verdicts: verdicts, known: known)
        }
        for decoded in decodedFiles { try keep(decoded) }
        return input
    }

    private func keep(_ decoded: DecodedFile) throws {
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
            case .transactions(let line):
                input.counts.historyTransactions += line.transactions.count
                for record in line.transactions { keep(record) }
                for renewal in line.renewals { keep(renewal) }
            case .rejected(let reject):
                input.counts.rejectedLines += 1
                try rejects.record(reject)
            case .incompleteHistory(let description):
                input.counts.incompleteHistories.append(description)
            }
        }
    }

    // MARK: Hygiene

    /// True when data of `raw` environment is left out of this run (and counted).
    ///
    /// Data that names no environment is read only where the user says it belongs.
    private func isOtherEnvironment(_ raw: String?) -> Bool {
        guard let raw else {
            if options.unlabeledEnvironment == options.environment { return false }
            input.counts.excludedByEnvironment["(none)", default: 0] += 1
            return true
        }
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
        if var renewal = notification.renewal {
            renewal.rawEnvironment = renewal.rawEnvironment ?? notification.rawEnvironment
            keep(renewal)
        }
    }

    private func keep(_ transaction: TransactionRecord) {
        if isOtherEnvironment(transaction.rawEnvironment) { return }
        if transaction.signedDate > options.asOf {
            input.counts.transactionCopiesSignedAfterAsOf += 1
            return
        }
        input.keep(transaction)
    }

    private func keep(_ renewal: RenewalRecord) {
        if isOtherEnvironment(renewal.rawEnvironment) { return }
        if renewal.signedDate > options.asOf {
            input.counts.renewalCopiesSignedAfterAsOf += 1
            return
        }
        input.keep(renewal)
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
