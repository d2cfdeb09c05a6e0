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
