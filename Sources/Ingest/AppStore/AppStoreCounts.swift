import Support

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
    /// What was read of Google Play's data (`play/`), when there is some: its folders count in
    /// the report's completeness beside the App Store's.
    package var play: PlayCounts?
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
