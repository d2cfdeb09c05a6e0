import Support

/// Where each field of a cost row sits in a cost file, found from its header row.
package struct CostColumns: Sendable, Hashable {
    /// The columns a cost file may have, by the names docs/contract.md gives them.
    package enum Name: String, Sendable, CaseIterable, Codable {
        case timestamp
        case accountID = "account_id"
        case category
        case cost
        case currency
        case quantity
        case unit
        case requestID = "request_id"
    }

    package var timestamp: Int
    package var accountID: Int
    package var category: Int
    /// Nil for a usage file: a quantity column and no cost, priced from prices.csv or paid by a
    /// FOCUS pool, row by row.
    package var cost: Int?
    package var currency: Int?
    package var quantity: Int?
    package var unit: Int?
    package var requestID: Int?
    /// A second quantity column added to `quantity` (a format's prompt plus completion tokens).
    var addedQuantity: Int?
    /// Number of fields in the header; every row must have exactly this many.
    package var width: Int
    package var format: CostFormat = .plain

    /// Matches header names like every other input (`HeaderColumns`); `mapping` renames a
    /// column (`cost` -> `amount_usd`) for files whose headers differ, and wins over the
    /// headers of the file's `format`.
    package init(header: [String], file: String, mapping: [Name: String], format: CostFormat = .plain)
        throws(CostInputError)
    {
        let columns = HeaderColumns(header)
        /// The header a column is read from: mapped, else the first of the format's the file has.
        func headerName(_ name: Name) -> String? {
            if let mapped = mapping[name] { return mapped }
            guard let choices = format.headers(for: name) else { return name.rawValue }
            return choices.first { columns.index($0) != nil } ?? choices.first
        }
        func find(_ name: Name) -> Int? { headerName(name).flatMap { columns.index($0) } }
        for name in Name.allCases {
            if let header = headerName(name), columns.repeated(header) { throw .repeatedColumn(file: file, header: header) }
        }
        func require(_ name: Name) throws(CostInputError) -> Int {
            guard let index = find(name) else {
                throw .missingColumn(
                    file: file, column: name.rawValue, header: headerName(name) ?? name.rawValue, present: header)
            }
            return index
        }
        timestamp = try require(.timestamp)
        accountID = try require(.accountID)
        category = try require(.category)
        quantity = find(.quantity)
        // Usage without cost needs its quantity; a file with neither, or whose cost column is
        // named and missing, is refused for its cost.
        cost = quantity == nil || mapping[.cost] != nil ? try require(.cost) : find(.cost)
        currency = find(.currency)
        unit = find(.unit)
        requestID = find(.requestID)
        addedQuantity = format.addedQuantityHeader.flatMap { columns.index($0) }
        width = header.count
        self.format = format
    }

    package func name(ofField index: Int) -> String {
        let named: [(Int?, Name)] = [
            (timestamp, .timestamp), (accountID, .accountID), (category, .category), (cost, .cost),
            (currency, .currency), (quantity, .quantity), (unit, .unit), (requestID, .requestID),
        ]
        if index == addedQuantity { return "quantity" }
        return named.first { $0.0 == index }?.1.rawValue ?? "column \(index + 1)"
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    package var trimmingSpaces: String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            let last = utf8.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return "" }
        return String(decoding: utf8[first...last], as: UTF8.self)
    }
}

/// Problems with a cost file as a whole (a bad row is a reject, not one of these).
package enum CostInputError: DiagnosticError, Sendable, Hashable {
    case missingColumn(file: String, column: String, header: String, present: [String])
    case emptyFile(file: String)
    case repeatedColumn(file: String, header: String)
    /// The file's name says JSON lines and its format CSV, or the other way round.
    case wrongFormat(file: String, reason: String)

    package var file: String {
        switch self {
        case .missingColumn(let file, _, _, _), .emptyFile(let file), .repeatedColumn(let file, _),
            .wrongFormat(let file, _):
            file
        }
    }

    /// What is wrong with the header, for a reject of line 1.
    package var reason: String {
        switch self {
        case .missingColumn(let file, let column, let header, let present):
            let name = file.split(separator: "/").last.map(String.init) ?? file
            let hint =
                column == header
                ? "if the file calls it something else, map it: --cost-column \(column)=HEADER (or '\(name):\(column)=HEADER' for this file only)"
                : "check the --cost-column \(column)=\(header) mapping"
            return "no '\(header)' column for \(column) (header has: \(present.joined(separator: ", "))); \(hint)"
        case .repeatedColumn(_, let header):
            return "the header names '\(header)' twice; which column to read is not clear, so the file is not read"
        case .emptyFile:
            return "the file is empty; a cost file needs a header row (timestamp,account_id,category,cost)"
        case .wrongFormat(_, let reason):
            return reason
        }
    }

    package var diagnostic: Diagnostic { Diagnostic(reason, file: file, line: 1) }
}

/// `--cost-column`: which header each cost column is read from, for every file
/// (`cost=amount_usd`) or for the files whose name matches a glob
/// (`'vendor-*.csv:cost=usd'`), so one differently shaped file can be mapped on its own.
package struct CostColumnMap: Sendable, Hashable, Codable, ExpressibleByDictionaryLiteral {
    package struct Rule: Sendable, Hashable, Codable {
        /// Matched against the file's name (not its folder); nil: every file.
        package var glob: String?
        package var name: CostColumns.Name
        package var header: String

        package init(glob: String?, name: CostColumns.Name, header: String) {
            self.glob = glob
            self.name = name
            self.header = header
        }

        /// As the command line spells it.
        package var spelling: String { (glob.map { $0 + ":" } ?? "") + "\(name.rawValue)=\(header)" }
    }

    /// `--cost-format`: the export format of the files a glob matches (nil: every file).
    package struct FormatRule: Sendable, Hashable, Codable {
        package var glob: String?
        package var format: CostFormat

        package init(glob: String?, format: CostFormat) {
            self.glob = glob
            self.format = format
        }

        package var spelling: String { (glob.map { $0 + ":" } ?? "") + format.rawValue }
    }

    /// In the order given; for one file, a glob rule wins over a plain one, a later over an earlier.
    package var rules: [Rule] = []
    /// In the order given, with the same precedence as `rules`.
    package var formats: [FormatRule] = []
    /// `--usage-field`: the member of an OpenMeter event's `data` that holds the quantity.
    package var usageField = OpenMeterEvent.defaultUsageField

    package init(rules: [Rule] = [], formats: [FormatRule] = []) {
        self.rules = rules
        self.formats = formats
    }

    private enum CodingKeys: String, CodingKey { case rules, formats, usageField }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rules = try container.decode([Rule].self, forKey: .rules)
        formats = try container.decodeIfPresent([FormatRule].self, forKey: .formats) ?? []
        usageField = try container.decodeIfPresent(String.self, forKey: .usageField) ?? OpenMeterEvent.defaultUsageField
    }

    /// The format of the file at `path`: its glob rule, else the plain rule, else `plain`.
    package func format(for path: String) -> CostFormat {
        let fullName = String(path.split(separator: "/").last ?? Substring(path))
        let name = InputStream.baseName(fullName)
        var chosen = CostFormat.plain
        for rule in formats where rule.glob == nil { chosen = rule.format }
        for rule in formats {
            guard let glob = rule.glob else { continue }
            if FileSystem.matches(glob: glob, name: fullName) || FileSystem.matches(glob: glob, name: name) {
                chosen = rule.format
            }
        }
        return chosen
    }

    package init(dictionaryLiteral elements: (CostColumns.Name, String)...) {
        rules = elements.map { Rule(glob: nil, name: $0.0, header: $0.1) }
    }

    package var isEmpty: Bool { rules.isEmpty && formats.isEmpty }

    /// The mapping for the file at `path`.
    package func mapping(for path: String) -> [CostColumns.Name: String] {
        let name = InputStream.baseName(String(path.split(separator: "/").last ?? Substring(path)))
        let fullName = String(path.split(separator: "/").last ?? Substring(path))
        var mapping: [CostColumns.Name: String] = [:]
        for rule in rules where rule.glob == nil { mapping[rule.name] = rule.header }
        for rule in rules {
            guard let glob = rule.glob else { continue }
            if FileSystem.matches(glob: glob, name: fullName) || FileSystem.matches(glob: glob, name: name) {
                mapping[rule.name] = rule.header
            }
        }
        return mapping
    }
}
