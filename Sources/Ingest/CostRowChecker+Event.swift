import Support

extension CostRowChecker {
    /// One OpenMeter event as a cost row: `subject` the account (empty: unlinked), `type` the
    /// category, the usage field the quantity and its name the unit, priced from prices.csv;
    /// `source` and `id` together the request id, as CloudEvents makes them unique.
    func checkEvent(line: Int, bytes: UnsafeRawBufferPointer, _ then: (Outcome) throws -> Reject?) throws
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
        // The request id joins source and id with U+001F: a source holding a control character
        // could make two different events' ids alike (a CloudEvents source is a URI, which holds none).
        var source = event.source
        if let byte = source.withUTF8({ UnsafeRawBufferPointer($0).firstControlByte }) {
            return try reject("source", event.source, Self.controlReason(byte))
        }
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
        var requestID = Self.requestID(of: event)
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
}
