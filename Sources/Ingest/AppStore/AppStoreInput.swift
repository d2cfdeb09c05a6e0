import Support

/// Everything read from `notifications/` and `transactions/`, after hygiene: one environment,
/// nothing signed after the as-of time, each notification once.
package struct AppStoreInput: Sendable, Codable {
    /// For each transaction id, the copy with the latest `signedDate` (not after the as-of
    /// time); ties go to the copy that shows a revocation, then to the first read.
    ///
    /// Only the latest copy is kept, so memory follows transactions, not copies; each in a box
    /// the ledger then shares.
    package var transactions: [RecordBox] = []
    /// How many copies of each transaction were read, by its place in `transactions`.
    package var copyCounts: [Int] = []
    /// The earliest `signedDate` of a copy showing a revocation, by the same place.
    package var firstRevokedCopies: [Timestamp?] = []
    /// Where each transaction is in `transactions`; not written with the rest (a snapshot is
    /// not added to), built again when a copy is kept into an input read back.
    private var index = PlaceTable<TransactionKey>()
    /// The texts many records repeat (products), one string each for all the records
    /// kept: memory follows the transactions' ids, not their copies of the same words.
    private var repeated = RepeatedStrings()

    /// Keeps `copy` if it is the newest of its transaction.
    mutating func keep(_ copy: consuming TransactionRecord) {
        copy.productID = repeated.interned(copy.productID)
        // A first purchase is its own original transaction: one string for both.
        if copy.packedOriginalTransactionID == copy.packedTransactionID {
            copy.packedOriginalTransactionID = copy.packedTransactionID
        }
        if index.count != transactions.count { reindex() }
        // One lookup a copy, by number: the id is found, or given the next place, in the same
        // probe.
        guard let position = index.claim(copy.transactionID, place: transactions.count) else {
            copyCounts.append(1)
            firstRevokedCopies.append(copy.revocationDate == nil ? nil : copy.signedDate)
            transactions.append(RecordBox(copy))
            return
        }
        copyCounts[position] += 1
        if copy.revocationDate != nil, firstRevokedCopies[position].map({ copy.signedDate < $0 }) ?? true {
            firstRevokedCopies[position] = copy.signedDate
        }
        let current = transactions[position]
        if copy.signedDate > current.record.signedDate
            || (copy.signedDate == current.record.signedDate && copy.revocationDate != nil
                && current.record.revocationDate == nil)
        {
            transactions[position] = RecordBox(copy)
        }
    }

    private mutating func reindex() {
        index = PlaceTable()
        for (place, box) in transactions.enumerated() { _ = index.claim(box.record.transactionID, place: place) }
    }

    /// The earliest `signedDate` of a copy showing a revocation, by transaction id, for the few
    /// transactions that have one (worked out from `firstRevokedCopies` on each call).
    package func firstRevokedCopyByID() -> [String: Timestamp] {
        var byID: [String: Timestamp] = [:]
        for (position, signed) in firstRevokedCopies.enumerated() {
            if let signed { byID[transactions[position].record.transactionID] = signed }
        }
        return byID
    }

    /// Renewal info by the transaction it came with (or `original:` and the original
    /// transaction id when it came alone): the copy with the latest `signedDate` not after the
    /// as-of time.
    package var renewals: [String: RenewalRecord] = [:]

    /// The latest copy that dates a billing grace period, by the same key: a later copy about
    /// the same transaction (an EXPIRED one, say) may no longer carry the date.
    package var graceRenewals: [String: RenewalRecord] = [:]

    /// Keeps `copy` if it is the newest renewal info for its transaction.
    mutating func keep(_ copy: consuming RenewalRecord) {
        let key = copy.transactionID ?? "original:" + copy.originalTransactionID
        if (renewals[key]?.signedDate).map({ $0 < copy.signedDate }) ?? true { renewals[key] = copy }
        if copy.gracePeriodExpiresDate != nil, (graceRenewals[key]?.signedDate).map({ $0 < copy.signedDate }) ?? true {
            graceRenewals[key] = copy
        }
    }

    /// Notifications, each `notificationUUID` once, in input order.
    package var notifications: [NotificationRecord] = []
    package var counts = AppStoreCounts()
    /// Google Play's orders held by an account, each also a record of `transactions` (its
    /// `store` says so): the one ledger holds both stores (docs/domain.md rule 16).
    package var playOrders: [PlayHeldOrder] = []
    /// SHA-256 of each notification and history file, computed while reading it.
    package var checksums: [String: String] = [:]
    /// Files whose every signature verified (path, SHA-256), for the record of verified files.
    package var verifiedFiles: [(path: String, sha256: String, counts: SignatureCounts)] = []

    package init() {}

    /// Lets go of what only keeping needs, once every file is read.
    ///
    /// The index by id (up to about 36 bytes a transaction, rebuilt if a copy is kept again) and the
    /// spare capacity the arrays grew by doubling: the ledger is built beside the input, so both
    /// would weigh at its peak.
    package mutating func finishKeeping() {
        index = PlaceTable()
        transactions = transactions.fitted()
        copyCounts = copyCounts.fitted()
        firstRevokedCopies = firstRevokedCopies.fitted()
        notifications = notifications.fitted()
    }

    /// Lets go of the records once the ledger holds what it needs of them: from then on only the
    /// counts, checksums and verified files are read, and the copies would double the memory.
    package mutating func releaseRecords() {
        transactions = []
        index = PlaceTable()
        copyCounts = []
        firstRevokedCopies = []
        renewals = [:]
        graceRenewals = [:]
        notifications = []
        playOrders = []
    }

    /// Adds Google Play's orders, each with the record the ledger reads of it, after the App
    /// Store's transactions; an order whose id is an App Store transaction's is left out and
    /// returned (a ledger keeps one transaction an id).
    package mutating func addPlay(_ orders: [(held: PlayHeldOrder, record: TransactionRecord)]) -> [PlayHeldOrder] {
        if index.count != transactions.count { reindex() }
        var clashing: [PlayHeldOrder] = []
        for (held, record) in orders {
            guard index.claim(record.transactionID, place: transactions.count) == nil else {
                clashing.append(held)
                continue
            }
            copyCounts.append(1)
            firstRevokedCopies.append(record.revocationDate == nil ? nil : record.signedDate)
            transactions.append(RecordBox(record))
            playOrders.append(held)
        }
        return clashing
    }

    /// What a ledger snapshot keeps: everything but the record of verified files, which the
    /// run that verified them has already written.
    private enum CodingKeys: String, CodingKey {
        case transactions, copyCounts, firstRevokedCopies, renewals, graceRenewals, notifications, counts
        case checksums, playOrders
    }
}
