import Support

extension CostRowChecker {
    /// The checker of one cost file: its format (by `--cost-format`, refused when the file's
    /// name says otherwise) and, for CSV, its header (read here when not given).
    package static func forFile(
        _ path: String, header given: [String]? = nil, mapping: CostColumnMap, prices: PriceTable,
        pooled: Set<String> = []
    ) throws -> CostRowChecker {
        let format = mapping.format(for: path)
        if let reason = CostFormat.mismatch(path, format) { throw CostInputError.wrongFormat(file: path, reason: reason) }
        if format.readsJSONLines {
            // Events name their fields themselves: the columns stand for what each one becomes.
            let fields = CostColumns.Name.allCases.map(\.rawValue)
            let columns = try CostColumns(header: fields, file: path, mapping: [:], format: .plain)
            var events = columns
            events.format = format
            return CostRowChecker(
                columns: events, path: path, prices: prices, usageField: mapping.usageField, pooled: pooled)
        }
        guard let header = try given ?? CSVReader.firstRecord(path: path) else { throw CostInputError.emptyFile(file: path) }
        let columns = try CostColumns(header: header, file: path, mapping: mapping.mapping(for: path), format: format)
        // Usage without a cost column is priced by prices.csv or paid by a bill; with neither,
        // every row would be refused for the same reason: the file is.
        if columns.cost == nil && prices.isEmpty && pooled.isEmpty {
            throw CostInputError.missingColumn(file: path, column: "cost", header: "cost", present: header)
        }
        return CostRowChecker(columns: columns, path: path, prices: prices, usageField: mapping.usageField, pooled: pooled)
    }
}

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
    private let pooledBytes: [[UInt8]]

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
        var hashed: UInt128?
        // Only a row as wide as the header has the field (`check` refuses the others).
        if let index = columns.requestID, record.count == columns.width {
            let id = record.trimmed(index)
            if !id.isEmpty { hashed = requests.prefetch(id) }
        }
        return try counting(line: record.line) {
            try count(check(record), hashed: hashed, into: &summary, requests: requests, body)
        }
    }

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
        var cost = Money.zero
        let format = columns.format
        let costField = columns.cost.map { record.trimmed($0) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        // An empty cost is priced from prices.csv once time, category and quantity are known.
        let priced = costField.isEmpty
        if !priced {
            do {
                // The tool's own format is written by the app: a digit it cannot keep is refused. A
                // gateway's export prints binary floating point, whose last digits are its noise.
                cost =
                    format.allowsExponent
                    ? try Money.parseAllowingExponent(costField) : try Money.parse(costField, exactly: true)
            } catch {
                return reject(columns.cost, error.description)
            }
        }
        let known = priced ? nil : (cost, currency)
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
        let unit = columns.unit.map { record.trimmed($0) } ?? empty
        // Usage a pool pays for gets its cost from the pool's shares (byte comparison: no text
        // is made on this path, taken by every usage row).
        if priced && quantityNanos != nil && pooledBytes.contains(where: { $0.elementsEqual(category) }) {
            let row = CostRow(
                timestamp: timestamp, accountID: account, category: category, cost: .zero,
                currency: currency, quantityNanos: quantityNanos, unit: unit, line: record.line)
            return .accepted(row, requestID: requestID)
        }
        if priced {
            let categoryText = String(decoding: category, as: UTF8.self)
            switch price(quantityNanos, category: categoryText, unit: String(decoding: unit, as: UTF8.self), at: timestamp) {
            case .success(let value): (cost, currency) = value
            case .failure(let problem):
                // An export's unpriced request costs nothing, as the gateway says.
                if format.emptyCostIsZero { break }
                return reject(columns.cost, problem.reason)
            }
        }
        let row = CostRow(
            timestamp: timestamp, accountID: account, category: category, cost: cost,
            currency: currency, quantityNanos: quantityNanos, unit: unit, line: record.line)
        return .accepted(row, requestID: requestID)
    }

    /// `quantity x price` of the row's category and unit on its day, rounded once to nine
    /// decimals; or why the row cannot be priced.
    private func price(_ quantityNanos: Int64?, category categoryText: String, unit unitText: String, at time: Timestamp)
        -> Result<(Money, CurrencyCode), PricingError>
    {
        guard let quantityNanos else {
            return .failure(PricingError("the cost is empty and the row has no quantity to price: give the cost"))
        }
        guard let found = prices.price(category: categoryText, unit: unitText, at: time) else {
            let what = unitText.isEmpty ? categoryText : "\(categoryText) per \(unitText)"
            return .failure(
                PricingError(
                    "the cost is empty and prices.csv has no price for \(what) on \(time.civilDate): "
                        + "give the cost, or add a line \(categoryText),\(unitText),PRICE,CURRENCY,FROM to prices.csv"))
        }
        guard let cost = try? found.price.scaled(by: quantityNanos, over: Money.nanosPerUnit) else {
            return .failure(PricingError("quantity x price is beyond what an amount can hold"))
        }
        return .success((cost, found.currency))
    }
}

extension CostRowChecker {
    /// One OpenMeter event as a cost row: `subject` the account (empty: unlinked), `type` the
    /// category, the usage field the quantity and its name the unit, priced from prices.csv;
    /// `source` and `id` together the request id, as CloudEvents makes them unique.
    fileprivate func checkEvent(line: Int, bytes: UnsafeRawBufferPointer, _ then: (Outcome) throws -> Reject?) throws
        -> Reject?
    {
        func reject(_ field: String, _ value: String, _ reason: String) throws -> Reject? {
            try then(.rejected(Reject(file: path, line: line, field: field, value: value, reason: reason), cost: nil))
        }
        let event: OpenMeterEvent
        do {
            event = try OpenMeterEvent(line: bytes, usageField: usageField)
        } catch {
            let shown = String(decoding: bytes.prefix(80), as: UTF8.self)
            return try reject("", shown, "not an OpenMeter event (a CloudEvents JSON object on one line): \(error)")
        }
        guard !event.id.isEmpty else { return try reject("id", "", "an event needs an id (CloudEvents requires one)") }
        let timestamp: Timestamp
        var time = event.time
        switch time.withUTF8({ TimestampParser.parseInput(UnsafeRawBufferPointer($0)) }) {
        case .success(let parsed): timestamp = parsed
        case .failure(let problem): return try reject("time", event.time, problem.description)
        }
        guard !event.type.isEmpty else {
            return try reject("type", "", "an event needs a type: the meter's event type is the category")
        }
        guard let quantityText = event.quantity else {
            return try reject(
                "data." + usageField, "",
                "the event's data has no '\(usageField)': name the member that holds the quantity with --usage-field NAME")
        }
        var quantityBytes = quantityText
        let parsed: Result<Money, MoneyError> = quantityBytes.withUTF8 { raw in
            do throws(MoneyError) {
                return .success(try Money.parseAllowingExponent(UnsafeRawBufferPointer(raw)))
            } catch { return .failure(error) }
        }
        let quantity: Money
        switch parsed {
        case .success(let value): quantity = value
        case .failure(let error): return try reject("data." + usageField, quantityText, "quantity is \(error.description)")
        }
        let priced: (Money, CurrencyCode)
        switch price(quantity.nanos, category: event.type, unit: usageField, at: timestamp) {
        case .success(let value): priced = value
        case .failure(let problem):
            // A pool pays for the meter's usage: its shares are the cost.
            guard pooled.contains(event.type) else {
                return try reject("data." + usageField, quantityText, problem.reason)
            }
            priced = (.zero, .usd)
        }
        var account = event.subject
        var category = event.type
        var unit = usageField
        var requestID = event.source + "\u{1F}" + event.id
        return try account.withUTF8 { account in
            try category.withUTF8 { category in
                try unit.withUTF8 { unit in
                    try requestID.withUTF8 { requestID in
                        for (field, bytes) in [("subject", account), ("type", category)] {
                            if let byte = UnsafeRawBufferPointer(bytes).firstControlByte {
                                return try reject(field, String(decoding: bytes, as: UTF8.self), Self.controlReason(byte))
                            }
                        }
                        let row = CostRow(
                            timestamp: timestamp, accountID: UnsafeRawBufferPointer(account),
                            category: UnsafeRawBufferPointer(category), cost: priced.0, currency: priced.1,
                            quantityNanos: quantity.nanos, unit: UnsafeRawBufferPointer(unit), line: line)
                        return try then(.accepted(row, requestID: UnsafeRawBufferPointer(requestID)))
                    }
                }
            }
        }
    }

    static func controlReason(_ byte: UInt8) -> String {
        "holds a control character (byte 0x\(String(byte, radix: 16, uppercase: true).leftPadded(to: 2))); "
            + "text fields may hold tabs but no other control characters"
    }
}

/// Why a row with no cost could not be priced.
struct PricingError: Error {
    package let reason: String
    init(_ reason: String) { self.reason = reason }
}

extension UnsafeRawBufferPointer {
    /// The first byte below 0x20 other than a tab, or DEL: none belongs in an id or a category.
    var firstControlByte: UInt8? {
        for byte in self where (byte < 0x20 && byte != 0x09) || byte == 0x7F { return byte }
        return nil
    }
}
