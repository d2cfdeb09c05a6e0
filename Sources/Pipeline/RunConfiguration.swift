import Attribution
import Ingest
import Ledger
import Support

/// Every option that changes a figure, in one value: what the command line declares once and
/// hands to the stages as it is.
///
/// Snapshots, partials, the merge, run.json's options and the record of verified files derive
/// what they compare from it (`fingerprint`, `appStore.signaturePolicy`), so a step that read
/// the data another way is refused whichever option it was: a new option added here is
/// compared everywhere with no other change.
package struct RunConfiguration: Sendable, Codable, Hashable {
    package var window: ReportWindow
    /// How the App Store side is read and the ledger built, the run's one as-of time among it.
    package var appStore: LedgerLoad.Options
    /// Time the server gets after a notice to cut access (`--grace`).
    package var grace: TimeSpan = .hours(1)
    /// How cost files are read: columns, export formats, the usage field.
    package var costColumns: CostColumnMap = [:]
    package var consumptionPolicy = ConsumptionPolicy()
    /// The bank's fee for a Google Play chargeback, in the report currency (`--chargeback-fee`);
    /// nil when none was given (a report then counts none).
    package var chargebackFee: Money?

    package init(window: ReportWindow, appStore: LedgerLoad.Options? = nil) {
        self.window = window
        self.appStore = appStore ?? LedgerLoad.Options(asOf: window.end)
    }

    /// The attributor a reading of cost rows over `ledger` uses: the one place it is made.
    ///
    /// A `template` takes no rows itself (the reading threads take copies of it); otherwise it
    /// takes them (respond's answers over a few accounts).
    package func attributor(ledger: Ledger, rates: ExchangeRates, template: Bool = true) -> Attributor {
        template
            ? Attributor.template(ledger: ledger, window: window, grace: grace, rates: rates)
            : Attributor(ledger: ledger, window: window, grace: grace, rates: rates)
    }

    /// The SHA-256 of its coding: two configurations share it exactly when every option is equal.
    package var fingerprint: String {
        guard var bytes = try? CompactCoder.encode(self) else { return "" }
        return bytes.withUnsafeMutableBytes { SHA256.digest(UnsafeRawBufferPointer($0)) }
    }
}
