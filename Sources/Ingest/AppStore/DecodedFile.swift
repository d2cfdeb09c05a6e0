import Support

/// What one notification or transaction file decoded to, in line order, before hygiene:
/// decoding runs on all cores, one file per task, and hygiene then keeps files in order.
struct DecodedFile: Sendable {
    enum Item: Sendable {
        case notification(DecodedNotification)
        case transactions(TransactionLine)
        case rejected(Reject)
        /// A history page says Apple has more, and no later page follows it in the file.
        case incompleteHistory(String)
    }

    var path: String
    var items: [Item] = []
    var notificationLines = 0
    var historyLines = 0
    var sha256 = ""
    var signatures = SignatureCounts()
    /// Every signature in it was verified and none refused (now or by an earlier run).
    var fullyVerified = false
    /// Its signatures were verified by an earlier run (same bytes, same trust settings).
    var fromRecord = false
    /// The last history page read: its line and paging.
    private var lastPage: (line: Int, page: HistoryPage)?

    init(path: String, items: [Item] = [], sha256: String = "") {
        self.path = path
        self.items = items
        self.sha256 = sha256
    }

    /// Decodes a file with its signatures checked, or, when an earlier run verified the very
    /// same bytes under the same settings, without: then the checksum taken while reading must
    /// match the record, or the file is read again with every check.
    ///
    /// A file that is not UTF-8
    /// is a rejected input; the other files are still read.
    static func decodeChecked(
        _ path: String, notifications: Bool, policy: SignaturePolicy, verdicts: ChainVerdicts, known: VerifiedFiles?
    ) throws -> DecodedFile {
        do {
            if policy.verify, let entry = known?.entry(for: path, policy: policy.fingerprint) {
                var unchecked = policy
                unchecked.verify = false
                var decoded = try decode(path, notifications: notifications, policy: unchecked, verdicts: verdicts)
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
            return try decode(path, notifications: notifications, policy: policy, verdicts: verdicts)
        } catch LineReaderError.notUTF8, CSVError.notUTF8 {
            let reject = Reject(file: path, line: 1, field: "", value: "", reason: TextEncodingCheck.utf16Reason)
            return DecodedFile(path: path, items: [.rejected(reject)], sha256: try SHA256.file(path))
        }
    }

    private static func decode(
        _ path: String, notifications: Bool, policy: SignaturePolicy, verdicts: ChainVerdicts
    ) throws -> DecodedFile {
        let verifier = JWSVerifier(policy: policy, verdicts: verdicts)
        var decoded = DecodedFile(path: path)
        let hasher = SHA256()
        if !notifications {
            try InputStream.readLines(path: path, onBlock: hasher.update) { line, bytes in
                decoded.addTransactionLine(bytes, line: line, verifier: verifier)
            }
        } else if InputStream.baseName(path).lowercased().hasSuffix(".csv") {
            try decoded.readNotificationCSV(path, verifier: verifier, onBlock: hasher.update)
        } else {
            try InputStream.readLines(path: path, onBlock: hasher.update) { line, bytes in
                decoded.addNotificationLine(bytes, line: line, verifier: verifier)
            }
        }
        decoded.finishPages()
        decoded.sha256 = hasher.finish()
        decoded.signatures = verifier.counts
        decoded.fullyVerified = policy.verify && verifier.counts.rejected == 0
        return decoded
    }

    private mutating func addNotificationLine(_ bytes: UnsafeRawBufferPointer, line: Int, verifier: JWSVerifier) {
        guard !bytes.isBlank else { return }
        notificationLines += 1
        let decoded = decodeNotificationLine(bytes, at: SourceLocation(file: path, line: line), verifier: verifier)
        for result in decoded.results {
            switch result {
            case .success(let notification): items.append(.notification(notification))
            case .failure(let error): items.append(.rejected(reject(error, bytes.preview(), line)))
            }
        }
        if let page = decoded.page { lastPage = (line, page) }
    }

    private mutating func addTransactionLine(_ bytes: UnsafeRawBufferPointer, line: Int, verifier: JWSVerifier) {
        guard !bytes.isBlank else { return }
        historyLines += 1
        do throws(AppStoreDecodingError) {
            let decoded = try decodeTransactionLine(bytes, at: SourceLocation(file: path, line: line), verifier: verifier)
            items.append(.transactions(decoded))
            if let page = decoded.page { lastPage = (line, page) }
        } catch {
            items.append(.rejected(reject(error, bytes.preview(), line)))
        }
    }

    /// Pages are read in file order: a history is complete when its last page says Apple has no more.
    private mutating func finishPages() {
        guard let (line, page) = lastPage, page.hasMore else { return }
        let token = page.paginationToken.map { " (paginationToken \($0))" } ?? ""
        items.append(
            .incompleteHistory(
                "\(path):\(line): the last history page says hasMore\(token), but no later page follows; fetch the rest"))
    }

    private func reject(_ error: AppStoreDecodingError, _ value: String, _ line: Int) -> Reject {
        Reject(file: path, line: line, field: error.field, value: value, reason: error.reason)
    }

    /// `notifications/*.csv`: a header with `signed_payload` and optionally `received_at`.
    private mutating func readNotificationCSV(
        _ path: String, verifier: JWSVerifier, onBlock: (UnsafeRawBufferPointer) -> Void
    ) throws {
        var columns: (payload: Int, received: Int?)?
        try CSVReader.read(path: path, onBlock: onBlock) { record in
            guard let found = columns else {
                let header = HeaderColumns(record.strings)
                guard let payload = header.index("signed_payload") else {
                    throw AppStoreInputError.missingColumn(file: path, column: "signed_payload", present: record.strings)
                }
                columns = (payload, header.index("received_at"))
                return
            }
            notificationLines += 1
            addCSVRow(record, payload: found.payload, received: found.received, verifier: verifier)
        }
    }

    private mutating func addCSVRow(_ record: CSVRecord, payload: Int, received: Int?, verifier: JWSVerifier) {
        guard payload < record.count else {
            let error = AppStoreDecodingError(
                field: "signed_payload", reason: "row has \(record.count) fields, too few for signed_payload")
            return items.append(.rejected(reject(error, "", record.line)))
        }
        var receivedAt: Timestamp?
        if let received, received < record.count, !record.trimmed(received).isEmpty {
            switch TimestampParser.parseInput(record.trimmed(received)) {
            case .success(let parsed): receivedAt = parsed
            case .failure(let problem):
                let error = AppStoreDecodingError(field: "received_at", reason: problem.description)
                return items.append(.rejected(reject(error, record.string(received), record.line)))
            }
        }
        let signed = record.string(payload)
        let location = SourceLocation(file: path, line: record.line)
        do throws(AppStoreDecodingError) {
            items.append(
                .notification(try decodeSignedNotification(signed, receivedAt: receivedAt, at: location, verifier: verifier)))
        } catch {
            items.append(.rejected(reject(error, String(signed.prefix(120)), record.line)))
        }
    }
}
