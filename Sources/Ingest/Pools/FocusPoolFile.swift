import Support

/// Reads a FOCUS export in `costs/` into pool rows: every field a pool needs is checked, and a
/// row that cannot be used is a reject with file, line, field, value and reason (its cost is
/// then in no figure, and the reject says so).
///
/// A bill holds one row per resource, charge and period (a few thousand a day for a large
/// account), not one per request: it is read whole, before the usage rows.
package enum FocusPoolFile {
    package struct Read: Sendable {
        package var rows: [PoolRow] = []
        package var rejects: [Reject] = []
        /// Data rows, the header excluded.
        package var lines = 0
    }

    /// True when the file's header is a FOCUS bill's.
    package static func isPoolFile(_ path: String) -> Bool {
        guard !CostFormat.isJSONLines(path), let header = try? CSVReader.firstRecord(path: path) else { return false }
        return FocusColumns.isFocus(header)
    }

    package static func read(path: String) throws -> Read {
        var read = Read()
        var columns: FocusColumns?
        try CSVReader.read(path: path) { record in
            guard let found = columns else {
                columns = FocusColumns(header: record.strings)
                return
            }
            read.lines += 1
            switch check(record, columns: found, path: path) {
            case .row(let row): read.rows.append(row)
            case .rejected(let reject): read.rejects.append(reject)
            }
        }
        return read
    }

    private enum Checked {
        case row(PoolRow)
        case rejected(Reject)
    }

    private static func check(_ record: CSVRecord, columns: FocusColumns, path: String) -> Checked {
        func field(_ index: Int?) -> String {
            guard let index, index < record.count else { return "" }
            return record.string(index).trimmingSpaces
        }
        func reject(_ index: Int?, _ name: String, _ reason: String) -> Checked {
            .rejected(Reject(file: path, line: record.line, field: name, value: field(index), reason: reason))
        }
        guard record.count == columns.width else {
            return reject(
                nil, "", "row has \(record.count) fields but the header has \(columns.width) (an unquoted comma, or a cut line?)")
        }
        var times: [Timestamp] = []
        for (index, name) in [(columns.periodStart, "ChargePeriodStart"), (columns.periodEnd, "ChargePeriodEnd")] {
            var field = record.trimmed(index)
            // BigQuery's export writes its timestamps `2026-10-01 00:00:00 UTC`.
            if field.count > 4 && field.suffix(4).elementsEqual(" UTC".utf8) {
                field = UnsafeRawBufferPointer(rebasing: field.dropLast(4))
            }
            switch TimestampParser.parseInput(field) {
            case .success(let time): times.append(time)
            case .failure(let problem): return reject(index, name, problem.description)
            }
        }
        guard times[0] < times[1] else {
            return reject(
                columns.periodEnd, "ChargePeriodEnd",
                "the charge period ends at or before it starts (\(times[0])): the end is exclusive and must be later")
        }
        guard let currency = CurrencyCode(validating: field(columns.currency)) else {
            return reject(columns.currency, "BillingCurrency", "not a three-letter currency code")
        }
        var costs: [Money?] = []
        for (index, name) in [(columns.billedCost, "BilledCost"), (columns.effectiveCost, "EffectiveCost")] {
            guard let index, !record.trimmed(index).isEmpty else {
                costs.append(nil)
                continue
            }
            do {
                costs.append(try Money.parseAllowingExponent(record.trimmed(index)))
            } catch {
                return reject(index, name, error.description)
            }
        }
        guard costs[0] != nil || costs[1] != nil else {
            return reject(columns.effectiveCost ?? columns.billedCost, "EffectiveCost", "the row has no cost")
        }
        var tags: [String: String] = [:]
        if let index = columns.tags, !record.trimmed(index).isEmpty {
            do {
                tags = try parseTags(record.trimmed(index))
            } catch {
                return reject(index, "Tags", "not a JSON object of keys and values: \(error)")
            }
        }
        let category = field(columns.chargeCategory)
        return .row(
            PoolRow(
                file: path, line: record.line, start: times[0], end: times[1], billedCost: costs[0], effectiveCost: costs[1],
                currency: currency, chargeCategory: category.isEmpty ? "Usage" : category,
                serviceName: field(columns.serviceName), resourceID: field(columns.resourceID), tags: tags))
    }

    /// `{"team": "ml", "env": "prod"}`: values that are not strings are kept as written.
    static func parseTags(_ bytes: UnsafeRawBufferPointer) throws -> [String: String] {
        var tags: [String: String] = [:]
        var cursor = JSONCursor(bytes)
        try cursor.members { cursor, key in
            let name = String(decoding: key.bytes, as: UTF8.self)
            if cursor.isString() {
                tags[name] = try cursor.string()
            } else {
                tags[name] = String(decoding: try cursor.valueBytes(), as: UTF8.self)
            }
        }
        try cursor.finish()
        return tags
    }
}
