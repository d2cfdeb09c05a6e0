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
            Swift.print("  " + (value.isEmpty ? label : Format.padRight(label, 44) + value))
        }
        Swift.print("")
        let cutOff = asOf >= .latestAccepted ? "all signed data" : "as of \(asOf)"
        Swift.print("App Store data (\(environment.rawValue), \(cutOff)):")
        for row in CountLine.rows(counts.lines) { line(row.label, row.value) }
        line("accounts.csv links / products", "\(Format.count(load.accountLinkCount)) / \(Format.count(load.products.count))")
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
