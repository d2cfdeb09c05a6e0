import Support

/// Reads `notifications/*.jsonl|csv` and `transactions/*.jsonl` into an `AppStoreInput`.
///
/// Malformed lines (bad JSON, bad base64, a JWS that fails its checks, a transaction without
/// `transactionId`) go to the reject log; retries are dropped by `notificationUUID`, keeping
/// the earliest `receivedAt`; other environments and copies signed after the as-of time are
/// counted and left out.
package final class AppStoreReader {
    package let options: AppStoreOptions
    let rejects: RejectLog
    private(set) var input = AppStoreInput()
    /// Where each notification read is in `input.notifications`, or -1 when it was left out.
    private var notificationIndexByUUID: [NotificationKey: Int] = [:]
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

    /// Decodes the App Store files of `layout` named by `paths` (whole files, in the layout's
    /// order) into their pieces, keeping none: what a machine of a distributed run does for its
    /// group of files (`refund-cost decode`); `read(decoded:layout:)` then keeps them.
    ///
    /// `spans` reads a file as stored from a byte offset at a line's start (with the line
    /// number there) to an end: only what was appended since an earlier reading, up to the
    /// length the file had when it was looked at.
    ///
    /// `prepare` turns each piece into what `consume` takes, on the decoding threads (respond's
    /// state encodes the lines it keeps there).
    package func decode<Prepared: Sendable>(
        paths: [String], of layout: InputLayout, spans: [String: FileSpan] = [:],
        prepare: @escaping @Sendable (DecodedPart) throws -> Prepared, consume: (Prepared) throws -> Void
    ) throws {
        let wanted = Set(paths)
        let chosen = try files(layout).filter { wanted.contains($0.path) }.map { file in
            var file = file
            if let span = spans[file.path] {
                file.end = span.end
                if span.start > 0 {
                    file.start = span.start
                    file.firstLine = span.firstLine
                    // Part of a file: the record of verified files speaks of whole files only.
                    file.verifiedEarlier = nil
                    file.policy = options.signatures
                }
            }
            return file
        }
        try decode(chosen, prepare: prepare, consume: consume)
    }

    /// The same, each piece as it is decoded.
    package func decode(
        paths: [String], of layout: InputLayout, spans: [String: FileSpan] = [:], consume: (DecodedPart) throws -> Void
    ) throws {
        try decode(paths: paths, of: layout, spans: spans, prepare: { $0 }, consume: consume)
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

    private func decode(_ files: [AppStoreFile], consume: (DecodedPart) throws -> Void) throws {
        try decode(files, prepare: { $0 }, consume: consume)
    }

    private func decode<Prepared: Sendable>(
        _ files: [AppStoreFile], prepare: @escaping @Sendable (DecodedPart) throws -> Prepared,
        consume: (Prepared) throws -> Void
    ) throws {
        // Decoding is most of the work: pieces of the files are decoded on all cores and kept
        // in file and line order as they come, so the result does not depend on threads and
        // only a few decoded pieces are in memory at a time.
        let parts = AppStoreParts(files: files, partSize: partSize)
        // Each distinct certificate chain is judged once, whichever thread meets it first.
        let verdicts = ChainVerdicts()
        try Parallel.ordered(
            threads: threads, window: 2 * threads, next: parts.next,
            transform: { part in try prepare(try DecodedPart.decode(part, verdicts: verdicts)) }, consume: consume)
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
        return input
    }

    /// The files in reading order, each with the checks it needs: a file an earlier run verified
    /// (same bytes, same settings) is decoded without them.
    private func files(_ layout: InputLayout) throws -> [AppStoreFile] {
        let paths = layout.notificationFiles.map { ($0, true) } + layout.transactionFiles.map { ($0, false) }
        let policy = options.signatures
        var files = paths.map { AppStoreFile(path: $0.0, notifications: $0.1, policy: policy) }
        guard policy.verify, let known = verifiedFiles else { return files }
        // Looked up once a file (each lookup reads the file's size and time).
        let candidates = files.indices.compactMap { index in
            known.entry(for: files[index].path, policy: policy.fingerprint).map { (index: index, entry: $0) }
        }
        let candidatePaths = candidates.map { files[$0.index].path }
        // Whether the bytes are still those verified is known only from their checksum.
        let checksums = try Parallel.map(candidates.count, threads: FileSystem.processorCount) { position in
            try SHA256.file(candidatePaths[position])
        }
        for (position, candidate) in candidates.enumerated() where candidate.entry.sha256 == checksums[position] {
            files[candidate.index].policy.verify = false
            files[candidate.index].verifiedEarlier = candidate.entry
        }
        return files
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

    // MARK: Hygiene

    /// True when data of `raw` environment is left out of this run (and counted).
    ///
    /// True when the notification belongs to the environment read with `options` (a refund
    /// request of another is not this run's to answer).
    package static func admits(_ decoded: DecodedNotification, options: AppStoreOptions) -> Bool {
        guard let raw = decoded.notification.rawEnvironment ?? decoded.transaction?.rawEnvironment else {
            return options.unlabeledEnvironment == options.environment
        }
        return raw == options.environment.rawValue
    }

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
        if isOtherEnvironment(notification.rawEnvironment ?? decoded.transaction?.rawEnvironment) { return }
        if notification.signedDate > options.asOf {
            input.counts.notificationsSignedAfterAsOf += 1
            return
        }
        let key = NotificationKey(notification.uuid)
        if let index = notificationIndexByUUID[key] {
            input.counts.duplicateNotifications += 1
            // A retry tells nothing new but may have been received earlier than the copy kept.
            if index >= 0, let received = notification.receivedAt,
                input.notifications[index].receivedAt.map({ received < $0 }) ?? true
            {
                input.notifications[index].receivedAt = received
            }
            return
        }
        if keepsNotification(notification) {
            notificationIndexByUUID[key] = input.notifications.count
            var kept = notification
            kept.rawType = strings(kept.rawType)
            kept.subtype = strings(kept.subtype)
            kept.rawConsumptionRequestReason = strings(kept.rawConsumptionRequestReason)
            if let reason = kept.rawConsumptionRequestReason, kept.consumptionRequestReason == nil {
                input.counts.newValues[NewValue(field: "consumptionRequestReason", value: reason), default: 0] += 1
            }
            if let productID = kept.transaction?.productID { kept.transaction?.productID = strings(productID) }
            input.notifications.append(kept)
        } else {
            notificationIndexByUUID[key] = -1
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
        if isOtherEnvironment(transaction.rawEnvironment) { return }
        if transaction.signedDate > options.asOf {
            input.counts.transactionCopiesSignedAfterAsOf += 1
            return
        }
        var kept = transaction
        kept.productID = strings(kept.productID)
        kept.rawType = strings(kept.rawType)
        kept.appAccountToken = strings(kept.appAccountToken)
        kept.rawRevocationType = strings(kept.rawRevocationType)
        kept.rawOwnership = strings(kept.rawOwnership)
        noteNewValues(kept)
        input.keep(kept)
    }

    /// Counts the values of Apple's growing enumerations this version does not know.
    private func noteNewValues(_ record: TransactionRecord) {
        func note(_ field: String, _ raw: String?, known: Bool) {
            guard let raw, !known else { return }
            input.counts.newValues[NewValue(field: field, value: raw), default: 0] += 1
        }
        note("inAppOwnershipType", record.rawOwnership, known: record.ownership != nil)
        note("type", record.rawType, known: record.type != nil)
        note("revocationType", record.rawRevocationType, known: record.revocationType != nil)
    }

    private func keep(_ renewal: consuming RenewalRecord) {
        if isOtherEnvironment(renewal.rawEnvironment) { return }
        if renewal.signedDate > options.asOf {
            input.counts.renewalCopiesSignedAfterAsOf += 1
            return
        }
        var kept = renewal
        kept.productID = strings(kept.productID)
        input.keep(kept)
    }
}

/// Problems with a notification or history file as a whole.
enum AppStoreInputError: DiagnosticError, Sendable, Hashable {
    case missingColumn(file: String, column: String, present: [String])
    case repeatedColumn(file: String, column: String)

    /// What is wrong with the header, for a reject of line 1.
    package var reason: String {
        switch self {
        case .missingColumn(_, let column, let present):
            "no '\(column)' column (header has: \(present.joined(separator: ", "))); a notification CSV needs signed_payload and may have received_at"
        case .repeatedColumn(_, let column):
            "the header names '\(column)' twice; which column to read is not clear, so the file is not read"
        }
    }

    package var diagnostic: Diagnostic {
        switch self {
        case .missingColumn(let file, _, _), .repeatedColumn(let file, _): Diagnostic(reason, file: file, line: 1)
        }
    }
}
