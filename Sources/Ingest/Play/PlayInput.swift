import Support

/// Everything read from `play/`: each notification, voided purchase, order and purchase once.
///
/// Play's data carries no signature (docs/inputs.md, Google Play, what is trusted): it is
/// read as the app's server or `refund-cost fetch` stored it.
package struct PlayInput: Sendable, Codable {
    /// One per notification (`PlayNotification.identity`), the first copy read, in input order.
    package var notifications: [PlayNotification] = []
    /// One per order id and void time (a partial refund and a later one are two), in input order.
    package var voided: [PlayVoidedPurchase] = []
    /// One per order id: the copy with the latest `lastEventTime`, the later read on a tie.
    package var orders: [PlayOrder] = []
    /// One per purchase (its token, else its first order id): the last copy read, files in name order.
    package var purchases: [PlayPurchase] = []
    package var counts = PlayCounts()
    /// A purchase read again naming another account than its first copy: the first account is kept.
    package var accountConflicts: [PlayAccountConflict] = []

    package init() {}

    /// Reads every file of `files`; lines that cannot be read go to `rejects`, one each.
    package static func read(_ files: InputLayout.PlayFiles, rejects: RejectLog) throws -> PlayInput {
        var input = PlayInput()
        var notificationSeen: [String: Int] = [:]
        var voidSeen = Set<String>()
        var orderAt: [String: Int] = [:]
        var purchaseAt: [String: Int] = [:]
        let notificationsRead = try eachLine(of: files.notifications, rejects: rejects) { bytes, location in
            switch PlayNotification.decode(bytes, at: location) {
            case .success(let notification):
                input.counts.notificationsByKind[notification.kind.rawValue, default: 0] += 1
                input.counts.notificationsByPackage[notification.packageName ?? "", default: 0] += 1
                input.counts.records.notifications += 1
                if notificationSeen[notification.identity] == nil {
                    notificationSeen[notification.identity] = input.notifications.count
                    input.notifications.append(notification)
                } else {
                    input.counts.duplicatesDropped += 1
                    input.counts.duplicates.notifications += 1
                }
                return []
            case .failure(let error):
                input.counts.records.notifications += 1
                return [error]
            }
        }
        let voidedRead = try eachLine(of: files.voided, rejects: rejects) { bytes, location in
            var errors: [JSONError] = []
            for result in PlayVoidedPurchase.decode(bytes, at: location) {
                input.counts.records.voided += 1
                switch result {
                case .success(let void):
                    // A void without an order id is its token's: the NUL keeps the two kinds of key apart.
                    let key = (void.orderID ?? "\u{0}" + void.purchaseToken) + "\u{1F}" + String(void.voidedTime.milliseconds)
                    if voidSeen.insert(key).inserted {
                        input.voided.append(void)
                    } else {
                        input.counts.duplicatesDropped += 1
                        input.counts.duplicates.voided += 1
                    }
                case .failure(let error): errors.append(error)
                }
            }
            return errors
        }
        let ordersRead = try eachLine(of: files.orders, rejects: rejects) { bytes, location in
            var errors: [JSONError] = []
            for result in PlayOrder.decode(bytes, at: location) {
                input.counts.records.orders += 1
                switch result {
                case .success(let order):
                    guard let at = orderAt[order.orderID] else {
                        orderAt[order.orderID] = input.orders.count
                        input.orders.append(order)
                        continue
                    }
                    input.counts.duplicatesDropped += 1
                    input.counts.duplicates.orders += 1
                    let kept = input.orders[at]
                    if (order.lastEventTime ?? order.createTime) >= (kept.lastEventTime ?? kept.createTime) {
                        input.orders[at] = order
                    }
                case .failure(let error): errors.append(error)
                }
            }
            return errors
        }
        let purchasesRead = try eachLine(of: files.purchases, rejects: rejects) { bytes, location in
            input.counts.records.purchases += 1
            switch PlayPurchase.decode(bytes, at: location) {
            case .success(let purchase):
                let key = purchase.purchaseToken.map { "token:" + $0 } ?? purchase.orderIDs.first.map { "order:" + $0 }
                guard let key, let at = purchaseAt[key] else {
                    if let key { purchaseAt[key] = input.purchases.count }
                    input.purchases.append(purchase)
                    return []
                }
                input.counts.duplicatesDropped += 1
                input.counts.duplicates.purchases += 1
                var latest = purchase
                if let first = input.purchases[at].account {
                    if let other = purchase.account, other != first {
                        input.accountConflicts.append(
                            PlayAccountConflict(
                                token: purchase.purchaseToken ?? purchase.orderIDs.first ?? "", kept: first, other: other,
                                source: location))
                    }
                    latest.account = first
                }
                input.purchases[at] = latest
                return []
            case .failure(let error): return [error]
            }
        }
        input.counts.lines = PlayCounts.Lines(
            notifications: notificationsRead.lines, voided: voidedRead.lines, orders: ordersRead.lines,
            purchases: purchasesRead.lines)
        input.counts.rejected = notificationsRead.rejected + voidedRead.rejected + ordersRead.rejected + purchasesRead.rejected
        return input
    }

    /// Calls `decode` with each line of `paths` that is not blank; what it says is wrong is rejected.
    private static func eachLine(
        of paths: [String], rejects: RejectLog, _ decode: (UnsafeRawBufferPointer, SourceLocation) -> [JSONError]
    ) throws -> (lines: Int, rejected: Int) {
        var total = (lines: 0, rejected: 0)
        for path in paths {
            var lines = 0
            do {
                if let damaged = try damagedGzip(path) {
                    try rejects.record(
                        Reject(file: path, line: 0, field: "", value: "", reason: damaged.reason).refusingFile(rows: damaged.rows)
                    )
                    total.rejected += damaged.rows
                    total.lines += damaged.rows
                    continue
                }
                try InputStream.readLines(path: path) { line, bytes in
                    guard !bytes.isBlank else { return }
                    lines += 1
                    let errors: [JSONError]
                    if String(validating: bytes, as: UTF8.self) == nil {
                        // Two tokens whose bad bytes read as the same U+FFFD would be taken for one.
                        errors = [JSONError(reason: "not UTF-8: Google's JSON is", field: "")]
                    } else if let problem = StrictJSON.problem(in: bytes) {
                        errors = [problem]
                    } else {
                        errors = decode(bytes, SourceLocation(file: path, line: line))
                    }
                    for error in errors {
                        let value = PlayNotification.rejectedValue(in: bytes, field: error.field)
                        try rejects.record(
                            Reject(
                                file: path, line: line, field: Reject.cut(error.field), value: Reject.cut(value),
                                reason: error.reason))
                        total.rejected += 1
                    }
                }
            } catch LineReaderError.notUTF8 {
                let rows = FileRowCount.dataRows(path, headerLines: 0)
                try rejects.record(
                    Reject(file: path, line: 1, field: "", value: "", reason: TextEncodingCheck.utf16Reason)
                        .refusingFile(rows: rows))
                total.rejected += rows
                lines = rows
            }
            total.lines += lines
        }
        return total
    }
}

extension PlayInput {
    /// A gzip file that cannot be read to its end: refused whole before any of it is counted
    /// (its lines would otherwise count up to where it broke).
    fileprivate static func damagedGzip(_ path: String) throws -> (reason: String, rows: Int)? {
        guard path.lowercased().hasSuffix(".gz") else { return nil }
        var rows = 0
        do {
            try InputStream.readLines(path: path) { _, bytes in if !bytes.isBlank { rows += 1 } }
        } catch let error as InputStreamError {
            return (error.diagnostic.message + "; the file is refused whole", max(1, rows))
        } catch {
            // Anything else (not UTF-8) is the reading's to say.
            return nil
        }
        return nil
    }
}

/// What `play/` held: lines by folder, notifications by kind, copies dropped, records refused.
package struct PlayCounts: Sendable, Hashable, Codable {
    package struct Lines: Sendable, Hashable, Codable {
        package var notifications = 0
        package var voided = 0
        package var orders = 0
        package var purchases = 0
    }

    package var lines = Lines()
    /// Records read in each folder (a page's voids and a batchget's orders each count; a line
    /// that is no record counts one, rejected), and the copies of them dropped: what reports
    /// count each folder in.
    package var records = Lines()
    package var duplicates = Lines()
    /// Notifications read (copies included) by the object they carry.
    package var notificationsByKind: [String: Int] = [:]
    /// Notifications read (copies included) by `packageName` ("" for none): one app's data names one.
    package var notificationsByPackage: [String: Int] = [:]
    /// Copies of a notification, voided purchase, order or purchase already read.
    package var duplicatesDropped = 0
    /// Records refused (a page's record each; a file refused whole, each of its lines).
    package var rejected = 0
}
