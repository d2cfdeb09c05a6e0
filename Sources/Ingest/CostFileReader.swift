import Support

/// Reads cost files into `CostRow`s, one after the other: maps the header, checks every
/// field, drops repeated request ids, and sends every refused row to the reject log with its
/// file, line, field, value and reason. (Reports read in parallel with `ParallelCostReading`,
/// through the same checks.)
package final class CostFileReader {
    package let mapping: [CostColumns.Name: String]
    package let rejects: RejectLog
    private let requests = RequestRegistry()

    package init(mapping: [CostColumns.Name: String] = [:], rejects: RejectLog) {
        self.mapping = mapping
        self.rejects = rejects
    }

    /// Reads one file; `onBytes` gets progress, `body` every accepted row.
    package func read(
        path: String, onBytes: (UnsafeRawBufferPointer) -> Void = { _ in }, _ body: (CostRow) throws -> Void
    ) throws -> CostFileSummary {
        var summary = CostFileSummary(path: path, bytes: FileSystem.fileSize(path) ?? 0)
        var checker: CostRowChecker?
        try CSVReader.read(path: path, onBlock: onBytes) { record in
            guard let checker else {
                checker = CostRowChecker(
                    columns: try CostColumns(header: record.strings, file: path, mapping: mapping), path: path)
                return
            }
            if let reject = try checker.take(record, into: &summary, requests: requests, body) { try rejects.record(reject) }
        }
        if checker == nil { throw CostInputError.emptyFile(file: path) }
        return summary
    }
}

/// Checks one cost record and counts it: the shared step of the sequential and the parallel
/// readers.
package struct CostRowChecker: Sendable {
    package let columns: CostColumns
    package let path: String

    package init(columns: CostColumns, path: String) {
        self.columns = columns
        self.path = path
    }

    /// Counts the record in `summary`; hands an accepted row to `body`; returns the reject, if any.
    package func take(
        _ record: CSVRecord, into summary: inout CostFileSummary, requests: RequestRegistry, _ body: (CostRow) throws -> Void
    ) throws -> Reject? {
        summary.rows += 1
        switch check(record) {
        case .accepted(let row, let requestID):
            if let requestID {
                switch requests.claim(requestID, content: contentDigest(record)) {
                case .first: break
                case .repeated:
                    summary.duplicates += 1
                    try summary.duplicateCost.add(row.cost, in: row.currency)
                    return nil
                case .conflicting:
                    summary.conflicts += 1
                    summary.duplicates += 1
                    try summary.duplicateCost.add(row.cost, in: row.currency)
                    return nil
                }
            }
            summary.accepted += 1
            try summary.acceptedCost.add(row.cost, in: row.currency)
            try body(row)
            return nil
        case .rejected(let reject, let cost):
            summary.rejected += 1
            if let cost { try summary.rejectedCost.add(cost.amount, in: cost.currency) }
            return reject
        }
    }

    /// A digest of everything but the request id: two rows with the same id and digest are the
    /// same event logged twice, whichever is kept.
    private func contentDigest(_ record: CSVRecord) -> UInt64 {
        var hash: UInt64 = 0
        for index in 0..<record.count where index != columns.requestID {
            hash = FastHash.hash(record[index], seed: hash &+ UInt64(index))
        }
        return hash
    }

    package enum Outcome {
        case accepted(CostRow, requestID: Fingerprint?)
        /// The cost, when it could be read, so rejected money is still counted.
        case rejected(Reject, cost: (amount: Money, currency: CurrencyCode)?)
    }

    package func check(_ record: CSVRecord) -> Outcome {
        func reject(_ field: Int?, _ reason: String, cost: (Money, CurrencyCode)? = nil) -> Outcome {
            let name = field.map(columns.name(ofField:)) ?? ""
            let value = field.flatMap { $0 < record.count ? record.string($0) : nil } ?? ""
            return .rejected(Reject(file: path, line: record.line, field: name, value: value, reason: reason), cost: cost)
        }
        guard record.count == columns.width else {
            let missing = record.count < columns.width ? record.count : nil
            return reject(
                missing,
                "row has \(record.count) fields but the header has \(columns.width) (an unquoted comma, or a cut line?)")
        }
        var currency = CurrencyCode.usd
        if let index = columns.currency, !record[index].isEmpty {
            guard let code = CurrencyCode(record[index]) else {
                return reject(index, "not a three-letter currency code")
            }
            currency = code
        }
        let cost: Money
        do {
            cost = try Money.parse(record[columns.cost])
        } catch {
            return reject(columns.cost, error.description)
        }
        let known = (cost, currency)
        guard let timestamp = TimestampParser.parse(record[columns.timestamp]) else {
            return reject(
                columns.timestamp,
                "not a timestamp (use ISO-8601 like 2026-10-05T14:30:00Z, '2026-10-05 14:30:00' in UTC, or epoch milliseconds)",
                cost: known)
        }
        let account = record[columns.accountID]
        guard !account.isEmpty else {
            return reject(columns.accountID, "empty account_id: every cost row must name the account it served", cost: known)
        }
        var quantityNanos: Int64?
        if let index = columns.quantity, !record[index].isEmpty {
            do {
                quantityNanos = try Money.parse(record[index]).nanos
            } catch {
                return reject(index, "quantity is \(error.description)", cost: known)
            }
        }
        var requestID: Fingerprint?
        if let index = columns.requestID, !record[index].isEmpty {
            requestID = Fingerprint(record[index])
        }
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        let row = CostRow(
            timestamp: timestamp, accountID: account, category: record[columns.category], cost: cost,
            currency: currency, quantityNanos: quantityNanos,
            unit: columns.unit.map { record[$0] } ?? empty, line: record.line)
        return .accepted(row, requestID: requestID)
    }
}

/// What reading one cost file found.
package struct CostFileSummary: Sendable, Hashable {
    package var path: String
    package var bytes: Int
    /// Data rows (the header excluded).
    package var rows = 0
    package var accepted = 0
    package var rejected = 0
    package var duplicates = 0
    /// Repeated request ids whose rows differ otherwise (counted in `duplicates` too).
    package var conflicts = 0
    package var acceptedCost = CostTotals()
    package var rejectedCost = CostTotals()
    package var duplicateCost = CostTotals()

    package init(path: String, bytes: Int) {
        self.path = path
        self.bytes = bytes
    }

    /// Adds the counts of another part of the same file.
    package mutating func merge(_ other: CostFileSummary) throws(MoneyError) {
        rows += other.rows
        accepted += other.accepted
        rejected += other.rejected
        duplicates += other.duplicates
        conflicts += other.conflicts
        try acceptedCost.add(other.acceptedCost)
        try rejectedCost.add(other.rejectedCost)
        try duplicateCost.add(other.duplicateCost)
    }
}
