import Support

/// Reads cost files into `CostRow`s, one after the other: maps the header, checks every
/// field, drops repeated request ids, and sends every refused row to the reject log with its
/// file, line, field, value and reason. (Reports read in parallel with `ParallelCostReading`,
/// through the same checks.)
package final class CostFileReader {
    package let mapping: CostColumnMap
    package let rejects: RejectLog
    private let requests = RequestRegistry()

    package init(mapping: CostColumnMap = [:], rejects: RejectLog) {
        self.mapping = mapping
        self.rejects = rejects
    }

    /// Reads one file; `onBytes` gets progress, `body` every accepted row.
    package func read(
        path: String, onBytes: (UnsafeRawBufferPointer) -> Void = { _ in }, _ body: (CostRow) throws -> Void
    ) throws -> CostFileSummary {
        var summary = CostFileSummary(path: path, bytes: FileSystem.fileSize(path) ?? 0)
        var checker: CostRowChecker?
        do {
            try CSVReader.read(path: path, onBlock: onBytes) { record in
                guard let checker else {
                    checker = CostRowChecker(
                        columns: try CostColumns(
                            header: record.strings, file: path, mapping: mapping.mapping(for: path),
                            format: mapping.format(for: path)),
                        path: path)
                    return
                }
                if let reject = try checker.take(record, into: &summary, requests: requests, body) { try rejects.record(reject) }
            }
            if checker == nil { throw CostInputError.emptyFile(file: path) }
        } catch let error as CostInputError {
            // Refused whole, as the parallel reader refuses it: the run goes on and the reject
            // weighs every row of the file.
            try rejects.record(refusedFile(path, reason: error.reason))
        } catch CSVError.notUTF8 where checker == nil {
            try rejects.record(refusedFile(path, reason: TextEncodingCheck.utf16Reason))
        }
        return summary
    }

    private func refusedFile(_ path: String, reason: String) -> Reject {
        Reject(file: path, line: 1, field: "", value: "", reason: reason)
            .refusingFile(rows: FileRowCount.dataRows(path, headerLines: 1))
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
        do {
            return try count(record, into: &summary, requests: requests, body)
        } catch let error as MoneyError {
            throw CostRowError(file: path, line: record.line, underlying: error)
        } catch let error as ConversionError {
            throw CostRowError(file: path, line: record.line, underlying: error)
        }
    }

    private func count(
        _ record: CSVRecord, into summary: inout CostFileSummary, requests: RequestRegistry, _ body: (CostRow) throws -> Void
    ) throws -> Reject? {
        summary.rows += 1
        switch check(record) {
        case .accepted(let row, let requestID):
            if let requestID {
                let entry = requests.entry(requestID, for: row)
                switch requests.claim(entry) {
                case .first:
                    if requests.recordsClaims { summary.claims.append(RequestClaim(entry: entry, line: record.line)) }
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
            summary.note(row.timestamp)
            try summary.acceptedCost.add(row.cost, in: row.currency)
            try body(row)
            return nil
        case .rejected(let reject, let cost):
            summary.rejected += 1
            if let cost { try summary.rejectedCost.add(cost.amount, in: cost.currency) }
            return reject
        }
    }

    package enum Outcome {
        /// The request id's bytes are valid only inside the call, like the row's.
        case accepted(CostRow, requestID: UnsafeRawBufferPointer?)
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
        if let index = columns.currency, !record.trimmed(index).isEmpty {
            guard let code = CurrencyCode(record.trimmed(index)) else {
                return reject(index, "not a three-letter currency code")
            }
            currency = code
        }
        let cost: Money
        let format = columns.format
        let costField = record.trimmed(columns.cost)
        do {
            if costField.isEmpty && format.emptyCostIsZero {
                cost = .zero
            } else {
                cost = format.allowsExponent ? try Money.parseAllowingExponent(costField) : try Money.parse(costField)
            }
        } catch {
            return reject(columns.cost, error.description)
        }
        let known = (cost, currency)
        let timestamp: Timestamp
        switch TimestampParser.parseInput(record.trimmed(columns.timestamp)) {
        case .success(let parsed): timestamp = parsed
        case .failure(let problem): return reject(columns.timestamp, problem.description, cost: known)
        }
        let account = record.trimmed(columns.accountID)
        // An export's request with no user is served to nobody the App Store knows: unlinked.
        guard !account.isEmpty || format.keepsRowsWithoutAccount else {
            return reject(columns.accountID, "empty account_id: every cost row must name the account it served", cost: known)
        }
        // Control characters (NUL, ESC, ...) would travel into every CSV and the terminal.
        if let byte = account.firstControlByte {
            return reject(columns.accountID, Self.controlReason(byte), cost: known)
        }
        let category = record.trimmed(columns.category)
        if let byte = category.firstControlByte {
            return reject(columns.category, Self.controlReason(byte), cost: known)
        }
        var quantityNanos: Int64?
        for index in [columns.quantity, columns.addedQuantity].compactMap({ $0 }) where !record.trimmed(index).isEmpty {
            do {
                let part = try Money.parse(record.trimmed(index))
                quantityNanos = try (quantityNanos.map(Money.init(nanos:)) ?? .zero).adding(part).nanos
            } catch {
                return reject(index, "quantity is \(error.description)", cost: known)
            }
        }
        var requestID: UnsafeRawBufferPointer?
        if let index = columns.requestID, !record.trimmed(index).isEmpty {
            requestID = record.trimmed(index)
        }
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        let row = CostRow(
            timestamp: timestamp, accountID: account, category: category, cost: cost,
            currency: currency, quantityNanos: quantityNanos,
            unit: columns.unit.map { record.trimmed($0) } ?? empty, line: record.line)
        return .accepted(row, requestID: requestID)
    }
}

extension CostRowChecker {
    static func controlReason(_ byte: UInt8) -> String {
        "holds a control character (byte 0x\(String(byte, radix: 16, uppercase: true).leftPadded(to: 2))); "
            + "text fields may hold tabs but no other control characters"
    }
}

extension UnsafeRawBufferPointer {
    /// The first byte below 0x20 other than a tab, or DEL: none belongs in an id or a category.
    package var firstControlByte: UInt8? {
        for byte in self where (byte < 0x20 && byte != 0x09) || byte == 0x7F { return byte }
        return nil
    }
}

/// A sum that left the range money can hold, or a conversion that could not be made, at one
/// cost row: the run stops and says where.
package struct CostRowError: Error, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var underlying: any Error

    package var description: String {
        var detail = "\(underlying)"
        if detail.hasPrefix("error: ") { detail.removeFirst(7) }
        if underlying is MoneyError {
            detail = "the cost read so far in this currency, with this row, is beyond what the tool can hold (\(detail))"
        }
        return "\(file):\(line): error: \(detail)"
    }
}

/// What reading one cost file found.
package struct CostFileSummary: Sendable, Hashable, Codable {
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
    /// Ids this reading claimed first, in reading order, when the registry records them.
    package var claims: [RequestClaim] = []
    /// The earliest and latest accepted row: which months the data holds.
    package var earliest: Timestamp?
    package var latest: Timestamp?

    mutating func note(_ time: Timestamp) {
        if earliest.map({ time < $0 }) ?? true { earliest = time }
        if latest.map({ time > $0 }) ?? true { latest = time }
    }

    package init(path: String, bytes: Int) {
        self.path = path
        self.bytes = bytes
    }

    /// Adds the counts of another part of the same file.
    package mutating func merge(_ other: CostFileSummary) throws(MoneyError) {
        rows += other.rows
        accepted += other.accepted
        if let time = other.earliest { note(time) }
        if let time = other.latest { note(time) }
        rejected += other.rejected
        duplicates += other.duplicates
        conflicts += other.conflicts
        try acceptedCost.add(other.acceptedCost)
        try rejectedCost.add(other.rejectedCost)
        try duplicateCost.add(other.duplicateCost)
        claims += other.claims
    }
}
