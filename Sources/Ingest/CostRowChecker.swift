import Support

/// Checks one cost record and counts it: the shared step of the sequential and the parallel
/// readers.
package struct CostRowChecker: Sendable {
    package let columns: CostColumns
    package let path: String
    /// Prices rows that carry a quantity and no cost (`prices.csv`).
    package let prices: PriceTable
    /// The member of an OpenMeter event's `data` that holds the quantity.
    package let usageField: String
    /// Usage categories a FOCUS pool is spread over (`allocation.csv`): a row of one may carry a
    /// quantity and no cost, the pool pays for it.
    package let pooled: Set<String>
    /// `pooled` as bytes, compared with each row's category without making text of it.
    let pooledBytes: [[UInt8]]

    package init(
        columns: CostColumns, path: String, prices: PriceTable = PriceTable(),
        usageField: String = OpenMeterEvent.defaultUsageField, pooled: Set<String> = []
    ) {
        self.columns = columns
        self.path = path
        self.prices = prices
        self.usageField = usageField
        self.pooled = pooled
        pooledBytes = pooled.sorted().map { Array($0.utf8) }
    }

    /// Counts the record in `summary`; hands an accepted row to `body`; returns the reject, if any.
    package func take(
        _ record: CSVRecord, into summary: inout CostFileSummary, requests: RequestRegistry, _ body: (CostRow) throws -> Void
    ) throws -> Reject? {
        // The id's slot is fetched from memory while the rest of the row is checked.
        let hashed = requestID(of: record).map { requests.prefetch($0) }
        return try counting(line: record.line) {
            try count(check(record), hashed: hashed, into: &summary, requests: requests, body)
        }
    }

    /// The request id a record is claimed with when it is accepted, if it has one.
    ///
    /// Only a row as wide as the header has the field (`check` refuses the others).
    package func requestID(of record: CSVRecord) -> UnsafeRawBufferPointer? {
        guard let index = columns.requestID, record.count == columns.width else { return nil }
        let id = record.trimmed(index)
        return id.isEmpty ? nil : id
    }

    /// The request id an OpenMeter event is claimed with when it is accepted (its `source` and
    /// `id`, as CloudEvents makes them unique), if it can be read.
    package func requestID(ofEvent bytes: UnsafeRawBufferPointer) -> String? {
        guard let event = try? OpenMeterEvent(line: bytes, usageField: usageField), !event.id.isEmpty else { return nil }
        return Self.requestID(of: event)
    }

    static func requestID(of event: OpenMeterEvent) -> String { event.source + "\u{1F}" + event.id }

    /// The same for one line of an OpenMeter export (JSON lines).
    package func takeEvent(
        line: Int, bytes: UnsafeRawBufferPointer, into summary: inout CostFileSummary, requests: RequestRegistry,
        _ body: (CostRow) throws -> Void
    ) throws -> Reject? {
        try counting(line: line) {
            try checkEvent(line: line, bytes: bytes) { outcome in try count(outcome, into: &summary, requests: requests, body) }
        }
    }

    private func counting(line: Int, _ work: () throws -> Reject?) throws -> Reject? {
        do {
            return try work()
        } catch let error as MoneyError {
            throw CostRowError(file: path, line: line, underlying: error)
        } catch let error as ConversionError {
            throw CostRowError(file: path, line: line, underlying: error)
        }
    }

    /// `hashed` is the request id's hash when `prefetch` worked it out already.
    private func count(
        _ outcome: Outcome, hashed: UInt128? = nil, into summary: inout CostFileSummary, requests: RequestRegistry,
        _ body: (CostRow) throws -> Void
    ) throws -> Reject? {
        summary.rows += 1
        switch outcome {
        case .accepted(var row, let requestID):
            if let requestID {
                let entry = hashed.map { requests.entry(hashed: $0, for: row) } ?? requests.entry(requestID, for: row)
                switch requests.claim(entry) {
                case .first:
                    if requests.recordsClaims { summary.claims.append(RequestClaim(entry: entry, line: row.line)) }
                    if requests.claimsGoToRows { row.claimed = entry }
                case .repeated:
                    if requests.recordsRepeats { summary.repeats.append(entry) }
                    if pooledBytes.contains(where: { $0.elementsEqual(row.category) }) { summary.pooledRepeats += 1 }
                    summary.duplicates += 1
                    try summary.duplicateCost.add(row.cost, in: row.currency)
                    return nil
                case .conflicting:
                    if requests.recordsRepeats { summary.repeats.append(entry) }
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
}
