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
    private var index: [TransactionKey: Int] = [:]

    /// Keeps `copy` if it is the newest of its transaction.
    mutating func keep(_ copy: consuming TransactionRecord) {
        if index.count != transactions.count { reindex() }
        // One lookup a copy, by number: the key is found, or added with the next place, in the
        // same probe.
        let next = transactions.count
        let position = Self.claim(&index[TransactionKey(copy.transactionID), default: -1], next: next)
        if position == next {
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

    /// The place in `slot`, set to `next` when the slot is new (-1).
    @inline(__always)
    private static func claim(_ slot: inout Int, next: Int) -> Int {
        if slot < 0 { slot = next }
        return slot
    }

    private mutating func reindex() {
        index = Dictionary(
            transactions.enumerated().map { (TransactionKey($1.record.transactionID), $0) },
            uniquingKeysWith: { first, _ in first })
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
    /// SHA-256 of each notification and history file, computed while reading it.
    package var checksums: [String: String] = [:]
    /// Files whose every signature verified (path, SHA-256), for the record of verified files.
    package var verifiedFiles: [(path: String, sha256: String, counts: SignatureCounts)] = []

    package init() {}

    /// Lets go of the records once the ledger holds what it needs of them: from then on only the
    /// counts, checksums and verified files are read, and the copies would double the memory.
    package mutating func releaseRecords() {
        transactions = []
        index = [:]
        copyCounts = []
        firstRevokedCopies = []
        renewals = [:]
        graceRenewals = [:]
        notifications = []
    }

    /// What a ledger snapshot keeps: everything but the record of verified files, which the
    /// run that verified them has already written.
    private enum CodingKeys: String, CodingKey {
        case transactions, copyCounts, firstRevokedCopies, renewals, graceRenewals, notifications, counts
        case checksums
    }
}

/// What hygiene did, for `validate`, `run.json` and the report.
package struct AppStoreCounts: Sendable, Hashable, Codable {
    /// Non-blank lines (or CSV rows) read from notification files.
    package var notificationLines = 0
    /// Notifications kept, by raw `notificationType` (V1 ones under their V1 name).
    package var notificationsByType: [String: Int] = [:]
    package var v1Notifications = 0
    /// Retries: a `notificationUUID` seen before.
    package var duplicateNotifications = 0
    /// Notifications and transaction copies of another environment, by environment.
    package var excludedByEnvironment: [String: Int] = [:]
    package var notificationsSignedAfterAsOf = 0
    package var transactionCopiesSignedAfterAsOf = 0
    /// Lines read from transaction-history files, and the transaction copies they held.
    package var historyLines = 0
    package var historyTransactions = 0
    /// App transactions (Get App Transaction Info): recognised and counted, never costed.
    var appTransactions = 0
    package var rejectedLines = 0
    /// How the signatures of the App Store data fared (docs/domain.md rule 12).
    package var signatures = SignatureCounts()
    /// Files whose signatures an earlier run verified (same bytes, same settings): not checked again.
    package var filesVerifiedEarlier = 0
    var renewalCopiesSignedAfterAsOf = 0
    /// History pages that say Apple has more, with no later page after them: the data may miss some.
    package var incompleteHistories: [String] = []
    /// Transaction histories cut short (their last page says hasMore) with no continuation
    /// fetched: what `fetch transactions --incomplete` asks Apple for.
    package var cutHistories: [CutHistory] = []

    /// Values Apple added after this version (a new `inAppOwnershipType`, `type`,
    /// `revocationType`, `consumptionRequestReason`), each kept as it came: how many copies
    /// held each.
    var newValues: [NewValue: Int] = [:]

    package init() {}

    package var notificationsKept: Int { notificationsByType.values.reduce(0, +) }

    /// One line each of `newValues`, saying what the run did with it.
    package var newValueWarnings: [String] {
        newValues.keys.sorted { ($0.field, $0.value) < ($1.field, $1.value) }.map { key in
            let copies = newValues[key] ?? 0
            return "\(key.field) '\(key.value)' (\(copies) \(copies == 1 ? "copy" : "copies")) is a value this version does "
                + "not know, kept as it came: \(key.consequence)"
        }
    }

    /// Types the ledger does not act on, kept and counted.
    package var otherNotificationTypes: [String: Int] {
        notificationsByType.filter { NotificationType(rawValue: $0.key) == nil && NotificationType(v1: $0.key) == nil }
    }

    /// What was read and left out, as run.json, `validate` and the page show it (in run.json's
    /// order: `notifications`, `transactions`, `excluded_environments`, `renewal_info`).
    package var lines: [CountLine] {
        [
            CountLine(
                "notifications", "notifications",
                .group([
                    CountLine("lines", "notification lines read", notificationLines),
                    CountLine("kept", "notifications kept", notificationsKept),
                    CountLine("v1", "of them V1 notifications", v1Notifications, hiddenWhenZero: true),
                    CountLine("by_type", "notifications kept, by type", .breakdown(notificationsByType, listed: true)),
                    CountLine("duplicates_dropped", "retries dropped (same notificationUUID)", duplicateNotifications),
                    CountLine("signed_after_as_of", "notifications after --as-of, ignored", notificationsSignedAfterAsOf),
                ])),
            CountLine(
                "transactions", "transaction history",
                .group([
                    CountLine("history_lines", "history lines read", historyLines),
                    CountLine("history_copies", "transaction copies in the histories", historyTransactions),
                    CountLine(
                        "copies_signed_after_as_of", "transaction copies after --as-of, ignored",
                        transactionCopiesSignedAfterAsOf),
                    CountLine(
                        "app_transactions", "app transactions (not costed)", appTransactions,
                        hiddenWhenZero: true),
                ])),
            CountLine(
                "excluded_environments", "other environments left out", .breakdown(excludedByEnvironment, listed: false)),
            CountLine(
                "renewal_info", "renewal info",
                .group([
                    CountLine(
                        "copies_signed_after_as_of", "renewal info after --as-of, ignored", renewalCopiesSignedAfterAsOf)
                ])),
        ]
    }
}

package struct AppStoreOptions: Sendable, Hashable {
    package var environment: AppStoreEnvironment
    package var asOf: Timestamp
    package var signatures: SignaturePolicy
    /// Where data that names no environment belongs (`--unlabeled-environment`); nil: nowhere.
    package var unlabeledEnvironment: AppStoreEnvironment?

    package init(environment: AppStoreEnvironment = .production, asOf: Timestamp, signatures: SignaturePolicy? = nil) {
        self.environment = environment
        self.asOf = asOf
        self.signatures = signatures ?? SignaturePolicy(environment: environment, fallbackTime: asOf)
    }
}

/// A value of one of Apple's growing enumerations that this version does not know.
struct NewValue: Sendable, Hashable, Codable {
    package var field: String
    package var value: String

    package init(field: String, value: String) {
        self.field = field
        self.value = value
    }

    /// What the report does with such a value (docs/domain.md, rule 6 and "Apple's later values").
    var consequence: String {
        switch field {
        case "inAppOwnershipType":
            "who paid is not known, so cost served under these transactions is counted apart (unknown_ownership), "
                + "never as paid, shared or leaked"
        case "type": "the product is read as products.csv says, else as one with standing access"
        case "revocationType": "a revocation of a purchase is read as a full refund"
        default: "it is shown as it came and decides nothing"
        }
    }
}
