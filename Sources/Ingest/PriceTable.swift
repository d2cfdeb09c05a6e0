import Support

/// `prices.csv`: what one unit of a usage category costs.
///
/// A price holds from a date until the next row for that category and unit
/// (`category,unit,price,currency,from`). It prices usage rows that
/// carry a quantity and no cost, such as OpenMeter's metered events.
package struct PriceTable: Sendable, Hashable, Codable {
    package struct Price: Sendable, Hashable, Codable {
        package var day: Int64
        /// Per unit, exact to nine decimals.
        package var price: Money
        package var currency: CurrencyCode
    }

    /// By `category` then `unit` (empty for none): prices sorted by the day they start.
    private var prices: [String: [Price]] = [:]

    package init() {}

    package var isEmpty: Bool { prices.isEmpty }

    private static func key(_ category: String, _ unit: String) -> String { category + "\u{1F}" + unit }

    /// Reads the file; a line that cannot be read stops the run naming it (a usage row priced
    /// from a wrong price would be wrong in every figure).
    package init(path: String) throws(PriceTableError) {
        var header: HeaderColumns?
        var problem: PriceTableError?
        do {
            try CSVReader.read(path: path) { record in
                guard problem == nil else { return }
                guard let columns = header else {
                    let found = HeaderColumns(record.strings)
                    for name in ["category", "price", "from"] where found.index(name) == nil {
                        problem = PriceTableError(
                            file: path, line: record.line,
                            reason: "no '\(name)' column (header category,unit,price,currency,from)")
                        return
                    }
                    header = found
                    return
                }
                func field(_ name: String) -> String {
                    columns.index(name).map { $0 < record.count ? record.string($0).trimmingSpaces : "" } ?? ""
                }
                guard let price = try? Money.parse(field("price")), price.nanos >= 0 else {
                    problem = PriceTableError(
                        file: path, line: record.line,
                        reason: "price \"\(field("price"))\" is not a plain decimal of zero or more")
                    return
                }
                guard let from = TimestampParser.parseDate(field("from")) else {
                    problem = PriceTableError(
                        file: path, line: record.line, reason: "from \"\(field("from"))\" is not a date like 2026-10-01")
                    return
                }
                var currency = CurrencyCode.usd
                if !field("currency").isEmpty {
                    let text = field("currency")
                    guard let code = CurrencyCode(validating: text) else {
                        problem = PriceTableError(
                            file: path, line: record.line, reason: "currency \"\(text)\" is not a three-letter code")
                        return
                    }
                    currency = code
                }
                let key = Self.key(field("category"), field("unit"))
                if prices[key]?.contains(where: { $0.day == from.dayNumber }) == true {
                    problem = PriceTableError(
                        file: path, line: record.line,
                        reason:
                            "a second price for \(field("category")) \(field("unit")) from \(from): which one holds is not clear")
                    return
                }
                prices[key, default: []].append(Price(day: from.dayNumber, price: price, currency: currency))
            }
        } catch {
            throw PriceTableError(file: path, line: 0, reason: "\(error)")
        }
        if let problem { throw problem }
        for key in prices.keys { prices[key]?.sort { $0.day < $1.day } }
    }

    /// `prices.csv` (or `prices.csv.gz`) of the data folder; none when there is no such file.
    package init(dataFolder: String) throws(PriceTableError) {
        for name in ["prices.csv", "prices.csv.gz"] where FileSystem.kind(dataFolder + "/" + name) == .regularFile {
            try self.init(path: dataFolder + "/" + name)
            return
        }
        self.init()
    }

    /// The price of one `unit` of `category` on the row's day; nil when none has started.
    package func price(category: String, unit: String, at time: Timestamp) -> Price? {
        guard let table = prices[Self.key(category, unit)] else { return nil }
        let day = time.civilDate.dayNumber
        return table.last { $0.day <= day }
    }
}

/// A `prices.csv` that cannot be used.
package struct PriceTableError: DiagnosticError, Sendable, Hashable {
    package var file: String
    package var line: Int
    package var reason: String
    package var diagnostic: Diagnostic { Diagnostic(reason, file: file, line: line) }
}
