import Ingest
import Support

/// Writes a synthetic dataset in the exact input layout: JWS-shaped notifications (with
/// retries, out of order, a few V1 bodies and a CSV export), history pages, accounts.csv,
/// products.csv, fx.csv and monthly cost files.
///
/// Same options, same bytes. The files that grow hold their lines in the order they arrive
/// (notifications as received, history pages as their last transaction was signed, cost rows
/// as spent), so `options.slice` can hold back what arrives after a time and release it later,
/// appended (`ReleaseSlice`).
package enum DatasetGenerator {
    /// The root of the dataset's own signing chain, written beside the data: a test root the
    /// tool never trusts unless `--trust-root` names it.
    package static let testRootName = "test-root.der"

    package static func generate(_ options: GeneratorOptions, into root: String, progress: (Int) -> Void = { _ in }) throws
        -> GeneratorSummary
    {
        var builder = ScenarioBuilder(seed: options.seed, windowStart: options.windowStart, windowEnd: options.windowEnd)
        var costs = try CostRowWriter(root: root, options: options)
        var summary = GeneratorSummary()
        var household = 0
        while builder.accountCount < options.accounts {
            let remaining = options.accounts - builder.accountCount
            let served: [(String, [ServedSpan])]
            let weights = ScenarioWeights.household
            switch builder.random.weighted([weights.unlinked, weights.access, weights.credits]) {
            case 0: served = [builder.unlinkedAccount()]
            case 1: served = builder.accessHousehold(maxAccounts: remaining)
            default: served = builder.consumableHousehold()
            }
            if builder.random.chance(ScenarioWeights.sandboxNoisePercent) { builder.sandboxNoise() }
            for (account, spans) in served {
                try costs.write(account: account, spans: spans, random: &builder.random)
            }
            household += 1
            if household % 1000 == 0 { progress(builder.accountCount) }
        }
        builder.openRequests(options.openRequests)
        let play = options.play ? try PlayDataset.generate(options, costs: &costs, root: root) : [:]
        let files = try SlicedFiles(slice: options.slice)
        summary.costRows = try costs.finish(into: files)
        summary.accounts = builder.accountCount
        summary.transactions = builder.transactions.count
        summary.scenarios = builder.scenarios
        for (name, count) in play { summary.scenarios[name] = count }
        summary.scenarios["duplicate_cost_row"] = costs.duplicates
        summary.scenarios["foreign_currency_cost_row"] = costs.foreignRows

        var random = builder.random
        let chain = TestChain(seed: options.seed)
        let encoder = NotificationEncoder(signer: chain.signer())
        let (lines, counts) = encoder.lines(builder.notifications, windowStart: options.windowStart, random: &random)
        summary.notificationLines = lines.count
        for (key, value) in counts { summary.scenarios[key] = value }
        try writeNotifications(
            lines, encoder: encoder, notifications: builder.notifications, root: root, windowEnd: options.windowEnd,
            into: files)
        try writeHistory(
            builder.transactions, notifications: builder.notifications, root: root, encoder: encoder,
            cut: options.cutHistories, into: files)
        try files.commit()
        summary.linesWritten = files.lines
        // A release appends to the files that grow; the others were written by the run before.
        guard options.slice.makesFiles else { return summary }
        try costs.finishBill()
        try writeBytes(chain.root, to: root + "/" + DatasetGenerator.testRootName)
        try writeAccounts(builder.accountRows, root: root)
        try write(SyntheticCatalog.productsCSV, to: root + "/products.csv")
        try writeRates(options, root: root)
        try writeEvidence(builder, play: options.play ? PlayDataset.consent(options) : [], root: root)
        return summary
    }

    private static func write(_ text: String, to path: String) throws {
        let file = try AtomicFileWriter(path: path)
        try file.append(text)
        try file.commit()
    }

    /// One JSON Lines file per month of `signedDate`, in the order the lines were received: as
    /// a server appends them, and not in the order Apple signed them (retries come hours late,
    /// deliveries a few seconds apart cross).
    ///
    /// Notifications signed after the window go to a CSV export, to exercise that form too.
    private static func writeNotifications(
        _ lines: [NotificationEncoder.Line], encoder: NotificationEncoder, notifications: [SyntheticNotification],
        root: String, windowEnd: Int64, into files: SlicedFiles
    ) throws {
        try FileSystem.createDirectory(root + "/notifications")
        var byMonth: [String: [NotificationEncoder.Line]] = [:]
        for line in lines { byMonth[line.signed >= windowEnd ? "late" : monthLabel(line.signed), default: []].append(line) }
        for month in byMonth.keys.sorted() {
            let bySigned = orderedBySignedThenText(byMonth[month] ?? [], encoder: encoder, notifications: notifications)
            let monthLines = bySigned.enumerated().sorted { ($0.element.received, $0.offset) < ($1.element.received, $1.offset) }
                .map(\.element)
            if month == "late" {
                let file = try files.open(
                    root + "/notifications/late-export.csv", header: CSVLine.header(["received_at", "signed_payload"]))
                for line in monthLines {
                    guard let jws = encoder.text(line, notifications).jws else { continue }
                    var row = CSVLine()
                    row.timestamp(Timestamp(milliseconds: line.received))
                    row.text(jws)
                    try file.append(row.line, at: line.received)
                }
            } else {
                let file = try files.open(root + "/notifications/\(month).jsonl")
                for line in monthLines {
                    try file.append(Array((encoder.text(line, notifications).text + "\n").utf8), at: line.received)
                }
            }
        }
    }

    /// Lines by signed time, ties by their text (the text is made for ties only).
    private static func orderedBySignedThenText(
        _ lines: [NotificationEncoder.Line], encoder: NotificationEncoder, notifications: [SyntheticNotification]
    ) -> [NotificationEncoder.Line] {
        let bySigned = lines.enumerated().sorted { ($0.element.signed, $0.offset) < ($1.element.signed, $1.offset) }.map(
            \.element)
        var ordered: [NotificationEncoder.Line] = []
        ordered.reserveCapacity(bySigned.count)
        var start = 0
        while start < bySigned.count {
            var end = start + 1
            while end < bySigned.count && bySigned[end].signed == bySigned[start].signed { end += 1 }
            if end - start == 1 {
                ordered.append(bySigned[start])
            } else {
                let tied = bySigned[start..<end].map { ($0, encoder.text($0, notifications).text) }
                ordered += tied.sorted { $0.1 < $1.1 }.map(\.0)
            }
            start = end
        }
        return ordered
    }

    /// One history page per original transaction: the latest copy of each transaction in it.
    private static func writeBytes(_ bytes: [UInt8], to path: String) throws {
        let file = try AtomicFileWriter(path: path)
        try file.append(bytes)
        try file.commit()
    }

    /// One Get Transaction History page per original transaction, every customer's in one file,
    /// in the order their last transaction was signed (as a server fetching each history after
    /// its last change appends them); the first `cut` histories of two or more transactions stop
    /// after their first one with `hasMore` (as a server that stored only the first page would
    /// have them), for `fetch transactions --incomplete`.
    private static func writeHistory(
        _ transactions: [SyntheticTransaction], notifications: [SyntheticNotification], root: String,
        encoder: NotificationEncoder, cut: Int, into files: SlicedFiles
    ) throws {
        try FileSystem.createDirectory(root + "/transactions")
        var lastSigned: [String: Int64] = [:]
        for notification in notifications where notification.environment == "Production" {
            lastSigned[notification.transaction.id] = max(lastSigned[notification.transaction.id] ?? 0, notification.signed)
        }
        var chains: [(original: String, items: [SyntheticTransaction])] = []
        var position: [String: Int] = [:]
        for transaction in transactions {
            if let index = position[transaction.originalID] {
                chains[index].items.append(transaction)
            } else {
                position[transaction.originalID] = chains.count
                chains.append((transaction.originalID, [transaction]))
            }
        }
        // Which histories are cut is decided in the order of their first transaction; the
        // pages then go out in the order their last transaction was signed, encoded one by one
        // (a million customers' pages do not fit in memory together).
        var cutSoFar = 0
        var pages: [(chain: Int, isCut: Bool, signedAt: [Int64])] = []
        for (index, chain) in chains.enumerated() {
            let isCut = cutSoFar < cut && chain.items.count > 1
            if isCut { cutSoFar += 1 }
            let items = isCut ? Array(chain.items.prefix(1)) : chain.items
            pages.append((index, isCut, items.map { lastSigned[$0.id] ?? $0.purchase + 2000 }))
        }
        pages.sort { ($0.signedAt.max() ?? 0, $0.chain) < ($1.signedAt.max() ?? 0, $1.chain) }
        let file = try files.open(root + "/transactions/history.jsonl")
        for entry in pages {
            let chain = chains[entry.chain]
            var page = JSONObjectBuilder()
            if entry.isCut {
                page.string("revision", "cut-" + chain.original)
            } else {
                page.integer("revision", Int64(chain.items.count))
            }
            page.string("bundleId", NotificationEncoder.bundleID)
            page.string("environment", "Production")
            page.bool("hasMore", entry.isCut)
            let signed = zip(chain.items, entry.signedAt).map { transaction, at in
                encoder.jws(NotificationEncoder.transactionPayload(transaction, signed: at))
            }
            page.value("signedTransactions", .array(signed.map(JSONValue.string)))
            try file.append(Array((page.object.compact + "\n").utf8), at: entry.signedAt.max() ?? 0)
        }
    }

    private static func writeAccounts(_ rows: [(account: String, original: String, token: String)], root: String) throws {
        let writer = try CSVFileWriter(
            path: root + "/accounts.csv", header: ["account_id", "original_transaction_id", "app_account_token"])
        for row in rows {
            writer.text(row.account)
            writer.text(row.original)
            writer.text(row.token)
            try writer.endRow()
        }
        try writer.commit()
    }

    /// consent.csv and deliveries.csv; the Play accounts' consent, when there are any, after the App Store's.
    private static func writeEvidence(
        _ builder: ScenarioBuilder, play: [(account: String, consented: Bool, at: Int64)], root: String
    ) throws {
        let consent = try CSVFileWriter(path: root + "/consent.csv", header: ["account_id", "consented", "at"])
        for row in builder.consentRows + play {
            consent.text(row.account)
            consent.bool(row.consented)
            consent.timestamp(Timestamp(milliseconds: row.at))
            try consent.endRow()
        }
        try consent.commit()
        let deliveries = try CSVFileWriter(path: root + "/deliveries.csv", header: ["transaction_id", "status", "at"])
        for row in builder.deliveryRows {
            deliveries.text(row.transaction)
            deliveries.text(row.status.rawValue)
            deliveries.timestamp(Timestamp(milliseconds: row.at))
            try deliveries.endRow()
        }
        try deliveries.commit()
    }

    /// EUR and GBP in US dollars, one rate per day of the window and the months before it.
    private static func writeRates(_ options: GeneratorOptions, root: String) throws {
        let writer = try CSVFileWriter(path: root + "/fx.csv", header: ["date", "currency", "rate"])
        var day = Timestamp(milliseconds: options.windowStart - 62 * ScenarioBuilder.day).dayNumber
        let last = Timestamp(milliseconds: options.windowEnd).dayNumber
        while day <= last {
            for (currency, base) in [("EUR", Int64(1_080_000)), ("GBP", 1_270_000)] {
                writer.date(CivilDate(dayNumber: day))
                writer.text(currency)
                writer.money(Money(nanos: (base + (day * 7919 % 20_000) - 10_000) * 1000))
                try writer.endRow()
            }
            day += 1
        }
        try writer.commit()
    }

    static func monthLabel(_ milliseconds: Int64) -> String {
        let date = Timestamp(milliseconds: milliseconds).civilDate
        return "\(date.year)-" + String(date.month).leftPadded(to: 2)
    }
}
