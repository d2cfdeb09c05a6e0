import Support

extension CostRowChecker {
    /// One CSV record as a cost row, priced from prices.csv when its cost is empty, or why it is
    /// refused (with its cost, when that could be read).
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
        let requestID = requestID(of: record)
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
}
