import Support

/// `fx.csv`: how many report-currency units one unit of a currency is worth, from a date
/// until the next row for that currency.
package struct ExchangeRates: Sendable, Codable {
    package let reportCurrency: CurrencyCode
    /// Per currency, (day number, rate) sorted by day.
    private var rates: [CurrencyCode: [(day: Int64, rate: Money)]] = [:]

    package init(reportCurrency: CurrencyCode) {
        self.reportCurrency = reportCurrency
    }

    package mutating func add(_ currency: CurrencyCode, from date: CivilDate, rate: Money) {
        rates[currency, default: []].append((date.dayNumber, rate))
    }

    mutating func sort() {
        for key in rates.keys { rates[key]?.sort { $0.day < $1.day } }
    }

    package var currencies: [CurrencyCode] { rates.keys.sorted() }

    private struct DatedRate: Codable {
        var currency: CurrencyCode
        var day: Int64
        var rate: Money
    }

    private enum CodingKeys: String, CodingKey { case reportCurrency, rates }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reportCurrency = try container.decode(CurrencyCode.self, forKey: .reportCurrency)
        for entry in try container.decode([DatedRate].self, forKey: .rates) {
            rates[entry.currency, default: []].append((entry.day, entry.rate))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reportCurrency, forKey: .reportCurrency)
        let entries = currencies.flatMap { currency in
            (rates[currency] ?? []).map { DatedRate(currency: currency, day: $0.day, rate: $0.rate) }
        }
        try container.encode(entries, forKey: .rates)
    }

    /// The rate in force on `day`; the report currency is always 1.
    package func rate(_ currency: CurrencyCode, onDay day: Int64) -> Money? {
        if currency == reportCurrency { return Money(nanos: Money.nanosPerUnit) }
        guard let table = rates[currency] else { return nil }
        var low = 0
        var high = table.count
        while low < high {
            let middle = (low + high) / 2
            if table[middle].day <= day { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? table[low - 1].rate : nil
    }

    /// Converts an amount into the report currency at the rate of `day`, rounding half to even
    /// at the ninth decimal.
    package func convert(_ amount: Money, from currency: CurrencyCode, onDay day: Int64) throws(ConversionError) -> Money {
        if currency == reportCurrency { return amount }
        guard let rate = rate(currency, onDay: day) else {
            throw ConversionError.missingRate(currency: currency, date: CivilDate(dayNumber: day), report: reportCurrency)
        }
        do {
            return try amount.scaled(by: rate.nanos, over: Money.nanosPerUnit)
        } catch {
            throw ConversionError.outOfRange(currency: currency)
        }
    }

    /// An amount as every report figure takes it: in the report currency, rounded half to even
    /// to the micro-unit (six decimals).
    ///
    /// Each cost row is rounded once, so the written figures of every file (products, days, months,
    /// transactions) add up to the written totals to the last decimal; the per-currency check of the
    /// input stays exact.
    package func reportAmount(_ amount: Money, from currency: CurrencyCode, onDay day: Int64) throws(ConversionError)
        -> Money
    {
        do {
            guard currency != reportCurrency else { return try amount.roundedToMicros() }
            guard let rate = rate(currency, onDay: day) else {
                throw ConversionError.missingRate(currency: currency, date: CivilDate(dayNumber: day), report: reportCurrency)
            }
            return try amount.scaledToMicros(by: rate.nanos, over: Money.nanosPerUnit)
        } catch let error as ConversionError {
            throw error
        } catch {
            throw ConversionError.outOfRange(currency: currency)
        }
    }

    static let purpose = "fx.csv needs date,currency,rate (rate = report-currency units per one unit of currency)"

    /// Reads `fx.csv`; bad rows are rejects, a currency listed twice for a date keeps the first.
    package static func read(path: String?, reportCurrency: CurrencyCode, rejects: RejectLog) throws -> ExchangeRates {
        var table = ExchangeRates(reportCurrency: reportCurrency)
        guard let path else { return table }
        var dateColumn = 0
        var currencyColumn = 0
        var rateColumn = 0
        var seen = Set<String>()
        try readSmallCSV(path: path, purpose: purpose) { columns, record in
            func reject(_ column: Int, _ name: String, _ reason: String) throws {
                let value = column < record.count ? record.string(column) : ""
                try rejects.record(Reject(file: path, line: record.line, field: name, value: value, reason: reason))
            }
            guard record.count == columns.names.count else {
                return try reject(record.count, "", "row has \(record.count) fields but the header has \(columns.names.count)")
            }
            guard let date = TimestampParser.parseDate(record[dateColumn]) else {
                return try reject(dateColumn, "date", "not a date YYYY-MM-DD")
            }
            guard let currency = CurrencyCode(record[currencyColumn]) else {
                return try reject(currencyColumn, "currency", "not a three-letter currency code")
            }
            let rate: Money
            do throws(MoneyError) {
                rate = try Money.parse(record[rateColumn])
            } catch {
                return try reject(rateColumn, "rate", "the rate is \(error.description)")
            }
            guard rate.nanos > 0 else {
                let text = record.string(rateColumn).trimmingSpaces
                let small = !text.hasPrefix("-") && text.contains(where: { $0 >= "1" && $0 <= "9" })
                return try reject(
                    rateColumn, "rate",
                    small
                        ? "the rate is below 0.000000001, the smallest the tool holds (nine decimals)"
                        : "the rate must be above zero (report-currency units per one unit of the currency)")
            }
            guard seen.insert("\(date)|\(currency)").inserted else {
                return try reject(currencyColumn, "currency", "a second rate for \(currency) on \(date); the first is kept")
            }
            table.add(currency, from: date, rate: rate)
        } header: { columns in
            dateColumn = try columns.require("date", file: path, purpose: purpose)
            currencyColumn = try columns.require("currency", file: path, purpose: purpose)
            rateColumn = try columns.require("rate", file: path, purpose: purpose)
        }
        table.sort()
        return table
    }
}

/// A cost or price that cannot be put into the report currency: the run stops, naming what to add.
package enum ConversionError: DiagnosticError, Sendable, Hashable {
    case missingRate(currency: CurrencyCode, date: CivilDate, report: CurrencyCode)
    case outOfRange(currency: CurrencyCode)

    /// What went wrong and what to do, without a location (the error that carries this one
    /// says where).
    package var reason: String {
        switch self {
        case .missingRate(let currency, let date, let report):
            "no exchange rate for \(currency) on or before \(date): add a row '\(date),\(currency),RATE' to fx.csv (RATE = \(report) per 1 \(currency))"
        case .outOfRange(let currency):
            "converting \(currency) overflowed the amount range"
        }
    }

    package var diagnostic: Diagnostic { Diagnostic(reason) }
}
