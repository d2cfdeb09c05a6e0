import Support

/// Reads `notifications/*.jsonl|csv` and `transactions/*.jsonl` into an `AppStoreInput`: the
/// pieces decoded (`AppStoreReader+Decoding`) kept in file and line order, each file's checksum
/// and signatures, the records the run admits (`AppStoreAdmission`), each kept once.
///
/// Malformed lines (bad JSON, bad base64, a JWS that fails its checks, a transaction without
/// `transactionId`) go to the reject log; retries are dropped by `notificationUUID`, keeping
/// the earliest `receivedAt`; other environments and copies signed after the as-of time are
/// counted and left out.
package final class AppStoreReader {
    package let options: AppStoreOptions
    /// Which records the run reads: its environment, signed by its as-of time.
    let admission: AppStoreAdmission
    let rejects: RejectLog
    private(set) var input = AppStoreInput()
    /// Where each notification read is in `input.notifications`, or -1 when it was left out.
    private var notificationIndexByUUID = PlaceTable<NotificationKey>()
    /// Which notifications are kept whole once counted (the others' transaction copies are kept).
    let keepsNotification: (NotificationRecord) -> Bool
    /// Product ids, types and the like repeat in every record: each is kept once.
    private var strings = StringInterner()
    /// Files verified by earlier runs (nil: verify everything, remember nothing).
    let verifiedFiles: VerifiedFiles?
    /// About how many bytes of lines are decoded as one piece.
    let partSize: Int
    /// Hears the bytes and lines kept so far, after every piece.
    let progress: (_ bytes: Int, _ lines: Int) -> Void
    private var bytesKept = 0
    /// Threads decoding (`--threads`; default: every core).
    let threads: Int

    package init(
        options: AppStoreOptions, rejects: RejectLog, verifiedFiles: VerifiedFiles? = nil,
        partSize: Int = AppStoreParts.defaultPartSize, threads: Int = FileSystem.processorCount,
        progress: @escaping (_ bytes: Int, _ lines: Int) -> Void = { _, _ in },
        keepsNotification: @escaping (NotificationRecord) -> Bool = { _ in true }
    ) {
        self.options = options
        self.admission = AppStoreAdmission(options: options)
        self.keepsNotification = keepsNotification
        self.rejects = rejects
        self.verifiedFiles = verifiedFiles
        self.partSize = partSize
        self.threads = max(1, threads)
        self.progress = progress
    }

    package func read(_ layout: InputLayout) throws -> AppStoreInput {
        try decode(try files(layout), consume: keep)
        return finished(layout)
    }

    /// The input kept from loose items (lines of several files, in their files' and lines'
    /// order), with the same hygiene as `read`: the App Store side of a few accounts.
    package func read(items: [AppStoreItem]) throws -> AppStoreInput {
        for item in items { try keep(item) }
        return input
    }

    /// What `read(layout)` gives, from the pieces of every App Store file of `layout` decoded
    /// elsewhere: the same hygiene, in the same order.
    package func read(decoded: DecodedPieces, layout: InputLayout) throws -> AppStoreInput {
        for path in layout.notificationFiles + layout.transactionFiles {
            try decoded.pieces(path, keep)
        }
        return finished(layout)
    }

    /// The input once every piece is kept: cut histories without their continuation named.
    private func finished(_ layout: InputLayout) -> AppStoreInput {
        // A cut history is complete when the pages after it lie beside it, whole.
        let present = Set(layout.transactionFiles.map { $0.split(separator: "/").last.map(String.init) ?? $0 })
        for history in cut where !present.contains(history.continuationName) {
            input.counts.cutHistories.append(history)
            input.counts.incompleteHistories.append(
                "\(history.file):\(history.line): the history page of transaction \(history.transactionID) says hasMore (revision "
                    + "\(history.revision)), but no later page of that customer follows; refund-cost fetch transactions "
                    + "--incomplete fetches the rest")
        }
        // What only reading needs is let go before the arrays are fitted (a copy each, for a
        // moment), and before the next inputs are read: a table of every notification's id
        // (84 MB at a million accounts) and the strings' (the records hold their strings).
        notificationIndexByUUID = PlaceTable()
        strings = StringInterner()
        input.finishKeeping()
        // Handed over, not shared: the caller letting go of the records frees them.
        defer { input = AppStoreInput() }
        return input
    }

    /// What is known of the file being kept, gathered over its pieces: its signatures, and its
    /// history pages (a notification history is one listing, whose last page says whether it
    /// ends; a transaction history file holds many customers' listings).
    private var fileSoFar = (
        signatures: SignatureCounts(), lastPage: (line: Int, page: HistoryPage)?.none, histories: OpenHistories()
    )
    /// Transaction histories whose last page says hasMore, in file order.
    private var cut: [CutHistory] = []

    private func keep(_ decoded: DecodedPart) throws {
        input.counts.notificationLines += decoded.notificationLines
        input.counts.historyLines += decoded.historyLines
        fileSoFar.signatures.add(decoded.signatures)
        if decoded.file.notifications {
            if let page = decoded.pages.last { fileSoFar.lastPage = (page.line, page.page) }
        } else {
            for page in decoded.pages { fileSoFar.histories.read(page.page, line: page.line) }
        }
        for item in decoded.items { try keep(item) }
        if decoded.endsFile { finish(decoded.file, sha256: decoded.sha256 ?? "") }
        bytesKept += decoded.bytes
        progress(bytesKept, input.counts.notificationLines + input.counts.historyLines)
    }

    private func keep(_ item: AppStoreItem) throws {
        switch item {
        case .notification(let notification):
            keep(notification)
        case .transactions(let line):
            input.counts.historyTransactions += line.transactions.count
            input.counts.appTransactions += line.appTransactions
            for record in line.transactions { keep(record) }
            for renewal in line.renewals { keep(renewal) }
        case .rejected(let reject):
            input.counts.rejectedLines += 1
            try rejects.record(reject)
        }
    }

    /// A file read to its end: its checksum, how its signatures fared, whether its history ends.
    private func finish(_ file: AppStoreFile, sha256: String) {
        var signatures = fileSoFar.signatures
        if let entry = file.verifiedEarlier {
            signatures = SignatureCounts()
            signatures.verified = entry.verified
            signatures.unverifiedDecoded = entry.decoded
            signatures.unverifiedXcode = entry.xcode
            input.counts.filesVerifiedEarlier += 1
        }
        input.checksums[file.path] = sha256
        input.counts.signatures.add(signatures)
        if file.verifiedEarlier != nil || (file.policy.verify && signatures.rejected == 0) {
            input.verifiedFiles.append((file.path, sha256, signatures))
        }
        // Pages are read in file order: a history is complete when its last page says Apple has no more.
        let open = file.notifications ? [fileSoFar.lastPage].compactMap { $0 }.filter(\.page.hasMore) : fileSoFar.histories.open
        for (line, page) in open {
            if !file.notifications, let id = page.customerTransactionID, let revision = page.paginationToken {
                // Said at the end of reading, unless the pages after it were fetched beside it.
                cut.append(CutHistory(file: file.path, line: line, transactionID: id, revision: revision))
            } else {
                let token = page.paginationToken.map { " (paginationToken \($0))" } ?? ""
                let which = file.notifications ? "the last history page" : "a history page without transactions"
                input.counts.incompleteHistories.append(
                    "\(file.path):\(line): \(which) says hasMore\(token), but no later page follows; fetch the rest")
            }
        }
        fileSoFar = (SignatureCounts(), nil, OpenHistories())
    }

    // MARK: Records

    /// True when the run leaves the record out (`admission`), counted by why: another
    /// environment, or signed after the as-of time (`afterAsOf`, the count of its kind).
    private func leavesOut(
        environment raw: String?, signed: Timestamp, afterAsOf: WritableKeyPath<AppStoreCounts, Int>
    ) -> Bool {
        switch admission.verdict(environment: raw, signed: signed) {
        case .admitted:
            return false
        case .otherEnvironment(let name):
            input.counts.excludedByEnvironment[name, default: 0] += 1
        case .signedAfterAsOf:
            input.counts[keyPath: afterAsOf] += 1
        }
        return true
    }

    private func keep(_ decoded: DecodedNotification) {
        let notification = decoded.notification
        let environment = notification.rawEnvironment ?? decoded.transaction?.rawEnvironment
        if leavesOut(environment: environment, signed: notification.signedDate, afterAsOf: \.notificationsSignedAfterAsOf) {
            return
        }
        let kept = keepsNotification(notification)
        // One lookup: the id is found, or given its place (-1 for one left out).
        if let index = notificationIndexByUUID.claim(notification.uuid, place: kept ? input.notifications.count : -1) {
            input.counts.duplicateNotifications += 1
            // A retry tells nothing new but may have been received earlier than the copy kept.
            if index >= 0, let received = notification.receivedAt,
                input.notifications[index].receivedAt.map({ received < $0 }) ?? true
            {
                input.notifications[index].receivedAt = received
            }
            return
        }
        if kept {
            for value in notification.newValues { input.counts.newValues[value, default: 0] += 1 }
            input.notifications.append(notification.interned(&strings))
        }
        input.counts.notificationsByType[notification.rawType, default: 0] += 1
        if notification.version == "1" { input.counts.v1Notifications += 1 }
        if let transaction = decoded.transaction { keep(transaction) }
        for transaction in decoded.otherTransactions { keep(transaction) }
        if var renewal = decoded.renewal {
            renewal.rawEnvironment = renewal.rawEnvironment ?? notification.rawEnvironment
            keep(renewal)
        }
    }

    private func keep(_ transaction: consuming TransactionRecord) {
        let afterAsOf = \AppStoreCounts.transactionCopiesSignedAfterAsOf
        if leavesOut(environment: transaction.rawEnvironment, signed: transaction.signedDate, afterAsOf: afterAsOf) { return }
        for value in transaction.newValues { input.counts.newValues[value, default: 0] += 1 }
        input.keep(transaction.interned(&strings))
    }

    private func keep(_ renewal: consuming RenewalRecord) {
        if leavesOut(environment: renewal.rawEnvironment, signed: renewal.signedDate, afterAsOf: \.renewalCopiesSignedAfterAsOf) {
            return
        }
        input.keep(renewal.interned(&strings))
    }
}
