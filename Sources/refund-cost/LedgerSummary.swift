import Attribution
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic

/// Prints what the App Store side of a `--data` folder holds, for `validate`.
enum LedgerSummary {
    static func print(_ load: AppStoreLoad, _ ledger: Ledger, environment: AppStoreEnvironment, asOf: Timestamp) {
        let counts = load.input.counts
        func line(_ label: String, _ value: String) {
            Swift.print("  " + Format.padRight(label, 44) + value)
        }
        Swift.print("")
        let cutOff = asOf >= .latestAccepted ? "all signed data" : "as of \(asOf)"
        Swift.print("App Store data (\(environment.rawValue), \(cutOff)):")
        line("notification lines read", Format.count(counts.notificationLines))
        line(
            "notifications kept",
            Format.count(counts.notificationsKept)
                + (counts.v1Notifications > 0 ? " (\(Format.count(counts.v1Notifications)) V1)" : ""))
        let byType = counts.notificationsByType.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
        for (type, count) in byType { line("  " + type, Format.count(count)) }
        line("retries dropped (same notificationUUID)", Format.count(counts.duplicateNotifications))
        let excluded = counts.excludedByEnvironment.sorted { $0.key < $1.key }.map { "\($0.key) \(Format.count($0.value))" }
        line("other environments left out", excluded.isEmpty ? "0" : excluded.joined(separator: ", "))
        line(
            "signed after --as-of, ignored",
            Format.count(counts.notificationsSignedAfterAsOf + counts.transactionCopiesSignedAfterAsOf))
        line(
            "history lines / transaction copies",
            "\(Format.count(counts.historyLines)) / \(Format.count(counts.historyTransactions))")
        if counts.appTransactions > 0 {
            line("app transactions (the app's own purchase, not costed)", Format.count(counts.appTransactions))
        }
        line("accounts.csv links / products", "\(Format.count(load.accountLinks.count)) / \(Format.count(load.products.count))")
        line("transactions (latest copy of each)", Format.count(ledger.transactions.count))
        line("accounts holding transactions", Format.count(ledger.accounts.count))
        if !ledger.accountsWithoutTransactions.isEmpty {
            line("accounts.csv accounts with no transaction found", Format.count(ledger.accountsWithoutTransactions.count))
        }
        var ends: [EndKind: Int] = [:]
        for transaction in ledger.transactions {
            if let end = transaction.end, end.at <= asOf { ends[end.kind, default: 0] += 1 }
        }
        let endText = EndKind.allCases.compactMap { kind in ends[kind].map { "\(kind.rawValue) \(Format.count($0))" } }
        line("access ended", endText.isEmpty ? "none" : endText.joined(separator: ", "))
        let reversals = ledger.transactions.reduce(0) { $0 + $1.reversals.count }
        line("refunds reversed", Format.count(reversals))
        var methods: [FamilyLinkMethod: Int] = [:]
        for link in ledger.familyLinks { methods[link.method, default: 0] += 1 }
        line(
            "family links",
            FamilyLinkMethod.allCases.map { "\($0.rawValue) \(Format.count(methods[$0] ?? 0))" }.joined(separator: ", "))
        line("link conflicts", Format.count(ledger.linkConflicts.count))
        line("appAccountTokens matching no account", Format.count(ledger.unmatchedAppAccountTokens))
        if !counts.incompleteHistories.isEmpty {
            line("history pages with more to fetch", Format.count(counts.incompleteHistories.count))
        }
        let signatures = load.input.counts.signatures
        if signatures.notChecked > 0 {
            line(
                "signatures",
                "NOT checked (--no-verify): \(Format.count(signatures.notChecked)) signed payloads read as they came")
        } else {
            line("signatures verified", Format.count(signatures.verified))
            line("decoded lines (nothing to verify)", Format.count(signatures.unverifiedDecoded))
            if signatures.unverifiedXcode > 0 {
                line("Xcode-signed, accepted unverified", Format.count(signatures.unverifiedXcode))
            }
        }
        for (check, count) in signatures.rejectedByCheck.sorted(by: { $0.key < $1.key }) {
            line("refused: " + check, Format.count(count))
        }
    }
}
