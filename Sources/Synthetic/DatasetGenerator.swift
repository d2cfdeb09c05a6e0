import Ingest
import Support

/// Writes a synthetic dataset in the exact input layout: JWS-shaped notifications (with
/// retries, out of order, a few V1 bodies and a CSV export), history pages, accounts.csv,
/// products.csv, fx.csv and monthly cost files.
///
/// Same options, same bytes.
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
        summary.costRows = try costs.finish(random: &builder.random)
        summary.accounts = builder.accountCount
        summary.transactions = builder.transactions.count
        summary.scenarios = builder.scenarios
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
            random: &random)
        try writeHistory(
            builder.transactions, notifications: builder.notifications, root: root, encoder: encoder,
            cut: options.cutHistories)
        try writeBytes(chain.root, to: root + "/" + DatasetGenerator.testRootName)
        try writeAccounts(builder.accountRows, root: root)
        try write(SyntheticCatalog.productsCSV, to: root + "/products.csv")
        try writeRates(options, root: root)
        try writeEvidence(builder, root: root)
        return summary
    }

    private static func write(_ text: String, to path: String) throws {
        let file = try AtomicFileWriter(path: path)
        try file.append(text)
        try file.commit()
    }

    /// One JSON Lines file per month of `signedDate`, shuffled: Apple does not deliver in order.
    ///
    /// Notifications signed after the window go to a CSV export, to exercise that form too.
    private static func writeNotifications(
        _ lines: [NotificationEncoder.Line], encoder: NotificationEncoder, notifications: [SyntheticNotification],
        root: String, windowEnd: Int64, random: inout SeededRandom
    ) throws {
        try FileSystem.createDirectory(root + "/notifications")
        var byMonth: [String: [NotificationEncoder.Line]] = [:]
        for line in lines { byMonth[line.signed >= windowEnd ? "late" : monthLabel(line.signed), default: []].append(line) }
        for month in byMonth.keys.sorted() {
            var monthLines = orderedBySignedThenText(byMonth[month] ?? [], encoder: encoder, notifications: notifications)
            random.shuffle(&monthLines)
            if month == "late" {
                let writer = try CSVFileWriter(
                    path: root + "/notifications/late-export.csv", header: ["received_at", "signed_payload"])
                for line in monthLines {
                    guard let jws = encoder.text(line, notifications).jws else { continue }
                    writer.timestamp(Timestamp(milliseconds: line.received))
                    writer.text(jws)
                    try writer.endRow()
                }
                try writer.commit()
            } else {
                let file = try AtomicFileWriter(path: root + "/notifications/\(month).jsonl")
                for line in monthLines { try file.append(encoder.text(line, notifications).text + "\n") }
                try file.commit()
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

    /// One Get Transaction History page per original transaction, every customer's in one file;
    /// the first `cut` histories of two or more transactions stop after their first one with
    /// `hasMore` (as a server that stored only the first page would have them), for
    /// `fetch transactions --incomplete`.
    private static func writeHistory(
        _ transactions: [SyntheticTransaction], notifications: [SyntheticNotification], root: String,
        encoder: NotificationEncoder, cut: Int
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
        let file = try AtomicFileWriter(path: root + "/transactions/history.jsonl")
        var cutSoFar = 0
        for chain in chains {
            var page = JSONObjectBuilder()
            let isCut = cutSoFar < cut && chain.items.count > 1
            if isCut {
                cutSoFar += 1
                page.string("revision", "cut-" + chain.original)
            } else {
                page.integer("revision", Int64(chain.items.count))
            }
            page.string("bundleId", NotificationEncoder.bundleID)
            page.string("environment", "Production")
            page.bool("hasMore", isCut)
            let signed = (isCut ? Array(chain.items.prefix(1)) : chain.items).map { transaction in
                encoder.jws(
                    NotificationEncoder.transactionPayload(
                        transaction, signed: lastSigned[transaction.id] ?? transaction.purchase + 2000))
            }
            page.value("signedTransactions", .array(signed.map(JSONValue.string)))
            try file.append(page.object.compact)
            try file.append("\n")
        }
        try file.commit()
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

    private static func writeEvidence(_ builder: ScenarioBuilder, root: String) throws {
        let consent = try CSVFileWriter(path: root + "/consent.csv", header: ["account_id", "consented", "at"])
        for row in builder.consentRows {
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
