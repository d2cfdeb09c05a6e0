import Attribution
import Ingest
import Ledger
import Support

/// What every command that reads `--data` needs before it looks at a cost row: the App Store
/// side read and checked, the ledger built from it, and the rates and evidence beside them.
///
/// The first two stages of the pipeline, written once.
package struct LedgerLoad: Sendable {
    package var layout: InputLayout
    package var appStore: AppStoreLoad
    package var ledger: Ledger
    package var rates: ExchangeRates
    package var evidence: ConsumptionEvidence
    /// Google Play's data as read, for the commands that show it (`validate`, `explain`: kept
    /// with `keepingPlay` or `keepingRecords`); nil when there is none or nothing asked to keep it.
    package var play: PlayInput?
    /// What the run should say on stderr but does not stop for: the record of verified files,
    /// and values Apple added after this version (known from the counts, so a ledger read back
    /// from a snapshot says them too).
    package var warnings: [Diagnostic] {
        (recordWarnings + appStore.input.counts.newValueWarnings + playWarnings).map { Diagnostic.warning($0) }
    }
    /// Transaction histories cut short, one warning each: a report and `validate` name them.
    package var incompleteHistories: [Diagnostic] {
        appStore.input.counts.incompleteHistories.map { Diagnostic.warning($0) }
    }
    private var recordWarnings: [String] = []
    /// What reading Google Play's data left out, said on stderr (test purchases, other apps).
    private var playWarnings: [String] = []

    /// What decides what the ledger answers.
    package struct Options: Sendable, Hashable, Codable {
        package var environment: AppStoreEnvironment = .production
        /// Where data that names no environment belongs (nil: left out).
        package var unlabeledEnvironment: AppStoreEnvironment?
        /// Data signed after this is ignored.
        package var asOf: Timestamp
        package var prematureWindow: TimeSpan = .hours(2)
        package var currency: CurrencyCode = .usd
        /// Roots trusted besides Apple Root CA - G3 (`--trust-root`), as DER.
        package var extraTrustRoots: [[UInt8]] = []
        package var verifySignatures = true
        package var bundleID: String?
        package var appAppleID: Int64?

        package init(asOf: Timestamp) {
            self.asOf = asOf
        }

        /// How the App Store files are read: the environment, the as-of time, the checks.
        var appStoreOptions: AppStoreOptions {
            var options = AppStoreOptions(environment: environment, asOf: asOf, signatures: signaturePolicy)
            options.unlabeledEnvironment = unlabeledEnvironment
            return options
        }

        /// What the ledger is built with: the one place it is derived.
        package var ledgerOptions: LedgerOptions { LedgerOptions(asOf: asOf, prematureWindow: prematureWindow) }

        /// fx.csv of `layout` (when it has one) in the report currency: the one place rates are read.
        package func rates(_ layout: InputLayout, rejects: RejectLog) throws -> ExchangeRates {
            try ExchangeRates.read(path: layout.exchangeRates, reportCurrency: currency, rejects: rejects)
        }

        /// What the signature checks trust and require (docs/domain.md rule 12).
        var signaturePolicy: SignaturePolicy {
            SignaturePolicy(
                roots: [AppleRoot.g3] + extraTrustRoots, verify: verifySignatures, bundleID: bundleID, appAppleID: appAppleID,
                environment: environment, fallbackTime: asOf)
        }
    }

    package init(
        layout: InputLayout, appStore: AppStoreLoad, ledger: Ledger, rates: ExchangeRates, evidence: ConsumptionEvidence
    ) {
        self.layout = layout
        self.appStore = appStore
        self.ledger = ledger
        self.rates = rates
        self.evidence = evidence
    }

    /// Reads `data` (ingest) and builds the ledger; rejected lines go to `rejects`.
    ///
    /// Files whose signatures verified are remembered in `verifiedFiles` (nil: none is). With
    /// `decoded`, the App Store files are not read: their pieces, decoded and verified elsewhere,
    /// are kept instead.
    ///
    /// Unless `keepingRecords` (a snapshot writes them, `explain` tells an account's rows), the
    /// records read are let go once the ledger is built: `appStore` then holds counts and
    /// checksums only.
    ///
    /// Google Play's data (`play/`) is read after the App Store's, its rejects recorded after
    /// theirs, and its orders held in the same ledger (docs/domain.md rule 16); with
    /// `readingPlay` false it is not read (Apple's `respond` answers from the App Store alone).
    ///
    /// `progress` hears the bytes and lines of the notification and history files read so far.
    package init(
        data: String, options: Options, rejects: RejectLog, verifiedFiles: String? = nil, decoded: DecodedPieces? = nil,
        keepingRecords: Bool = false, readingPlay: Bool = true, keepingPlay: Bool = false,
        progress: @escaping @Sendable (_ bytes: Int, _ lines: Int) -> Void = { _, _ in }
    ) throws {
        layout = try InputLayout(root: data)
        for refused in layout.refused { try rejects.record(refused) }
        let appStoreOptions = options.appStoreOptions
        var record = verifiedFiles.map(VerifiedFiles.init(location:))
        // Of the notifications, only those the ledger reads are kept (the others are counted):
        // a snapshot rebuilds the same ledger from them, and is the smaller for it.
        let keepsNotification: (NotificationRecord) -> Bool = { Ledger.reads($0) }
        appStore = try AppStoreLoad(
            layout: layout, options: appStoreOptions, rejects: rejects, verifiedFiles: record, decoded: decoded,
            keepsNotification: keepsNotification, progress: progress)
        if var known = record {
            // Remembered at once: a file verified is verified, whatever the rest of the run finds.
            let fingerprint = options.signaturePolicy.fingerprint
            for file in appStore.input.verifiedFiles {
                known.record(path: file.path, sha256: file.sha256, policy: fingerprint, counts: file.counts)
            }
            do {
                try known.save()
            } catch {
                // The record only saves time: a home that cannot hold it costs a warning, not the run.
                recordWarnings.append(
                    "the record of verified files could not be saved (\(error)); this run is complete, "
                        + "the next one checks every signature again (--verified-files FILE names another place, none turns it off)"
                )
            }
            record = known
        }
        if let reason = record?.refusedBecause { recordWarnings.append(reason) }
        if readingPlay && !layout.play.isEmpty {
            let input = try PlayInput.read(layout.play, rejects: rejects)
            appStore.input.counts.play = input.counts
            let held = PlayTransaction.all(in: input, asOf: options.asOf)
            for refused in held.refused { try rejects.record(refused) }
            if held.testOrders > 0 {
                playWarnings.append(
                    "\(HumanText.count(held.testOrders)) Google Play \(held.testOrders == 1 ? "order is" : "orders are") a license "
                        + "tester's (testPurchase): no money changed hands, so \(held.testOrders == 1 ? "it is" : "they are") left out, as Apple's Sandbox is"
                )
            }
            let apps = input.counts.notificationsByPackage.keys.filter { !$0.isEmpty }.sorted()
            if apps.count > 1 {
                playWarnings.append(
                    "play/notifications names \(apps.count) apps (\(apps.joined(separator: ", "))): a data folder is one app's, "
                        + "and refund_reviews.csv lists every app's reviews; keep each app's play/ apart")
            }
            for clash in appStore.input.addPlay(held.orders) {
                try rejects.record(
                    Reject(
                        file: clash.order.source.file, line: clash.order.source.line, field: "orderId",
                        value: clash.order.orderID,
                        reason: "an App Store transaction has the same id: the order is left out"))
            }
            // Kept for the commands that show it; a report needs only the ledger's orders.
            if keepingRecords || keepingPlay { play = input }
        }
        // Unless kept, handed over rather than shared: the ledger lets the records' arrays and
        // accounts.csv's rows go as soon as it is done with each, before its access timelines,
        // its peak.
        let (input, accountLinks) = keepingRecords ? (appStore.input, appStore.accountLinks) : appStore.handOverRecords()
        ledger = try Ledger(
            input: consume input, accountLinks: consume accountLinks, products: appStore.products,
            options: options.ledgerOptions, rejects: rejects)
        rates = try options.rates(layout, rejects: rejects)
        evidence = try ConsumptionEvidence.read(consent: layout.consent, deliveries: layout.deliveries, rejects: rejects)
    }

    /// Every input but the cost files (Google Play's last), with its size and SHA-256
    /// (notification and history files were checksummed while they were decoded), paths
    /// relative to `root`.
    func appStoreInputRecords(root: String) throws -> [InputFileRecord] {
        try (layout.allFiles.filter { !layout.costFiles.contains($0) } + layout.play.all).map { path in
            let checksum = try appStore.input.checksums[path] ?? SHA256.file(path)
            return InputFileRecord(
                path: HumanText.relative(path, to: root), bytes: FileSystem.fileSize(path) ?? 0, sha256: checksum)
        }
    }
}
