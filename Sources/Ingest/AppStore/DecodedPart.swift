import Support

/// One line of a notification or history file, decoded (or refused), before hygiene.
package enum AppStoreItem: Sendable {
    case notification(DecodedNotification)
    case transactions(TransactionLine)
    case rejected(Reject)

    /// The line it was read from (nil for a line that holds no record).
    package var line: Int? {
        switch self {
        case .notification(let decoded): decoded.notification.source.line
        case .transactions(let line): line.transactions.first?.source.line ?? line.renewals.first?.source.line
        case .rejected(let reject): reject.line
        }
    }
}

/// Bytes of a file to read: from `start`, which begins line `firstLine`, to `end`.
package struct FileSpan: Sendable, Hashable {
    package var start: Int
    package var firstLine: Int
    package var end: Int

    package init(start: Int, firstLine: Int, end: Int) {
        self.start = start
        self.firstLine = firstLine
        self.end = end
    }
}

extension AppStoreItem: Codable {
    private enum CodingKeys: String, CodingKey {
        case notification, transactions, rejected
    }

    /// One of three members, the others absent: what `refund-cost decode` writes.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let notification = try container.decodeIfPresent(DecodedNotification.self, forKey: .notification)
        let transactions = try container.decodeIfPresent(TransactionLine.self, forKey: .transactions)
        let rejected = try container.decodeIfPresent(Reject.self, forKey: .rejected)
        if let notification {
            self = .notification(notification)
        } else if let transactions {
            self = .transactions(transactions)
        } else if let rejected {
            self = .rejected(rejected)
        } else {
            throw DecodingError.dataCorruptedError(
                forKey: .rejected, in: container, debugDescription: "an App Store item holding nothing")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var notification: DecodedNotification?
        var transactions: TransactionLine?
        var rejected: Reject?
        switch self {
        case .notification(let value): notification = value
        case .transactions(let value): transactions = value
        case .rejected(let value): rejected = value
        }
        try container.encodeIfPresent(notification, forKey: .notification)
        try container.encodeIfPresent(transactions, forKey: .transactions)
        try container.encodeIfPresent(rejected, forKey: .rejected)
    }
}

/// What one piece of a notification or history file decoded to, in line order, before
/// hygiene: pieces are decoded on all cores (or on other machines: `refund-cost decode`), and
/// hygiene then keeps them in file order.
package struct DecodedPart: Sendable, Codable {
    package typealias Item = AppStoreItem

    var file: AppStoreFile
    package var path: String { file.path }
    package var items: [Item] = []
    package var notificationLines = 0
    package var historyLines = 0
    package var endsFile: Bool
    /// How many bytes of the file it covers (decompressed; the whole file for a CSV export).
    var bytes = 0
    /// The file's SHA-256, on its last piece.
    package var sha256: String?
    var signatures = SignatureCounts()
    /// A history page of the piece, and its line.
    struct Page: Sendable, Codable {
        var line: Int
        var page: HistoryPage
    }

    /// The history pages in the piece, in line order: their lines and paging.
    var pages: [Page] = []

    /// Decodes a piece with the checks its file's policy asks for.
    static func decode(_ part: AppStorePart, verdicts: ChainVerdicts) throws -> DecodedPart {
        let file = part.file
        let verifier = JWSVerifier(policy: file.policy, verdicts: verdicts)
        var decoded = DecodedPart(file: file, endsFile: part.endsFile, sha256: part.sha256)
        switch part.content {
        case .lines(let bytes, let firstLine):
            decoded.bytes = bytes.count
            try bytes.withUnsafeBytes { buffer in
                try LineReader.read(buffer, firstLine: firstLine, path: file.path) { line, bytes in
                    if file.notifications {
                        decoded.addNotificationLine(bytes, line: line, verifier: verifier)
                    } else {
                        decoded.addTransactionLine(bytes, line: line, verifier: verifier)
                    }
                }
            }
        case .csvFile:
            decoded.bytes = FileSystem.fileSize(file.path) ?? 0
            let hasher = file.verifiedEarlier == nil ? SHA256() : nil
            do {
                try decoded.readNotificationCSV(file.path, verifier: verifier, onBlock: { hasher?.update($0) })
                decoded.sha256 = file.verifiedEarlier?.sha256 ?? hasher?.finish()
            } catch CSVError.notUTF8 {
                decoded.items = [.rejected(decoded.notUTF8())]
                decoded.sha256 = try SHA256.file(file.path)
            }
        case .notUTF8:
            decoded.items = [.rejected(decoded.notUTF8())]
        }
        decoded.signatures = verifier.counts
        return decoded
    }

    private func notUTF8() -> Reject {
        Reject(file: path, line: 1, field: "", value: "", reason: TextEncodingCheck.utf16Reason)
            .refusingFile(rows: FileRowCount.dataRows(path, headerLines: file.path.lowercased().contains(".csv") ? 1 : 0))
    }

    private mutating func addNotificationLine(_ bytes: UnsafeRawBufferPointer, line: Int, verifier: JWSVerifier) {
        guard !bytes.isBlank else { return }
        notificationLines += 1
        let decoded = decodeNotificationLine(bytes, at: SourceLocation(file: path, line: line), verifier: verifier)
        for result in decoded.results {
            switch result {
            case .success(let notification): items.append(.notification(notification))
            case .failure(let error): items.append(.rejected(reject(error, in: bytes, line)))
            }
        }
        if let page = decoded.page { pages.append(Page(line: line, page: page)) }
    }

    private mutating func addTransactionLine(_ bytes: UnsafeRawBufferPointer, line: Int, verifier: JWSVerifier) {
        guard !bytes.isBlank else { return }
        historyLines += 1
        do throws(AppStoreDecodingError) {
            let decoded = try decodeTransactionLine(bytes, at: SourceLocation(file: path, line: line), verifier: verifier)
            items.append(.transactions(decoded))
            if var page = decoded.page {
                page.customerTransactionID = decoded.transactions.first?.transactionID
                var seen = Set<String>()
                page.originals = decoded.transactions.map(\.originalTransactionID).filter { seen.insert($0).inserted }
                pages.append(Page(line: line, page: page))
            }
        } catch {
            items.append(.rejected(reject(error, in: bytes, line)))
        }
    }

    private func reject(_ error: AppStoreDecodingError, _ value: String, _ line: Int) -> Reject {
        Reject(file: path, line: line, field: error.field, value: Reject.cut(value), reason: error.reason)
    }

    /// A rejected JSON line: its value is what the line holds at the field the reason names.
    private func reject(_ error: AppStoreDecodingError, in bytes: UnsafeRawBufferPointer, _ line: Int) -> Reject {
        reject(error, JSONValueAtPath.text(in: bytes, path: error.field), line)
    }

    /// `notifications/*.csv`: a header with `signed_payload` and optionally `received_at`.
    private mutating func readNotificationCSV(
        _ path: String, verifier: JWSVerifier, onBlock: (UnsafeRawBufferPointer) -> Void
    ) throws {
        var columns: (payload: Int, received: Int?)?
        do {
            try CSVReader.read(path: path, onBlock: onBlock) { record in
                guard let found = columns else {
                    columns = try Self.notificationColumns(record.strings, path: path)
                    return
                }
                notificationLines += 1
                addCSVRow(record, payload: found.payload, received: found.received, verifier: verifier)
            }
        } catch let error as AppStoreInputError {
            // The file is refused whole, weighing all its rows; the rest of the run goes on.
            let whole = Reject(file: path, line: 1, field: "", value: "", reason: error.reason)
            items = [.rejected(whole.refusingFile(rows: FileRowCount.dataRows(path, headerLines: 1)))]
        }
    }

    /// The header of a notification CSV: `signed_payload` once, `received_at` at most once.
    private static func notificationColumns(_ names: [String], path: String) throws -> (payload: Int, received: Int?) {
        let header = HeaderColumns(names)
        for name in ["signed_payload", "received_at"] where header.repeated(name) {
            throw AppStoreInputError.repeatedColumn(file: path, column: name)
        }
        guard let payload = header.index("signed_payload") else {
            throw AppStoreInputError.missingColumn(file: path, column: "signed_payload", present: names)
        }
        return (payload, header.index("received_at"))
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
