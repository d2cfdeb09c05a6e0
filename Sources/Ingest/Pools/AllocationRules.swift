import Support

/// `allocation.csv` of the data folder: the lines that say which FOCUS pool rows are spread over
/// which usage.
///
/// A line that cannot be read stops the run naming it: a pool spread by a wrong line would be
/// wrong in every figure.
package struct AllocationRules: Sendable, Hashable, Codable {
    package var path: String?
    package var lines: [AllocationLine] = []

    package init() {}

    package static let header = [
        "service_name", "resource_id_prefix", "tag", "charge_category", "category", "basis", "cost",
    ]

    /// Its name in the data folder (also gzipped).
    package static let fileName = "allocation.csv"

    /// `allocation.csv` (or `.gz`) of the data folder; no lines when there is none (one that is
    /// not a regular file is a rejected input of the layout).
    package init(dataFolder: String) throws {
        for name in [Self.fileName, Self.fileName + ".gz"] where FileSystem.kind(dataFolder + "/" + name) == .regularFile {
            try self.init(path: dataFolder + "/" + name)
            return
        }
        self.init()
    }

    package init(path: String) throws {
        self.path = path
        var problem: AllocationRulesError?
        try readSmallCSV(path: path, purpose: "allocation.csv says which FOCUS pool rows are spread over which usage") {
            columns, record in
            guard problem == nil else { return }
            do {
                lines.append(try Self.line(record, columns: columns, path: path))
            } catch let error as AllocationRulesError {
                problem = error
            }
        } header: { columns in
            _ = try columns.require("category", file: path, purpose: "each line names the usage category it spreads over")
        }
        if let problem { throw problem }
    }

    private static func line(_ record: CSVRecord, columns: HeaderColumns, path: String) throws(AllocationRulesError)
        -> AllocationLine
    {
        func field(_ name: String) -> String {
            columns.index(name).map { $0 < record.count ? record.string($0).trimmingSpaces : "" } ?? ""
        }
        func fail(_ name: String, _ reason: String) -> AllocationRulesError {
            AllocationRulesError(file: path, line: record.line, reason: "\(name) \"\(field(name))\": \(reason)")
        }
        let category = field("category")
        guard !category.isEmpty else { throw fail("category", "every line names the usage category it spreads over") }
        let basisText = field("basis").lowercased()
        guard let basis = basisText.isEmpty ? .quantity : AllocationBasis(rawValue: basisText) else {
            throw fail("basis", "is quantity (the usage rows' quantity) or rows (each row the same share)")
        }
        let costText = field("cost")
        guard
            let cost = costText.isEmpty
                ? .effective : PoolCostColumn.allCases.first(where: { $0.rawValue.lowercased() == costText.lowercased() })
        else {
            throw fail("cost", "is EffectiveCost (discounts and commitments included, the default) or BilledCost")
        }
        let tag = field("tag")
        var tagKey = tag
        var tagValue: String?
        if let equals = tag.firstIndex(of: "=") {
            tagKey = String(tag[..<equals])
            tagValue = String(tag[tag.index(after: equals)...])
        }
        let named = field("charge_category").split(separator: "|").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        let known = ["Usage", "Purchase", "Tax", "Credit", "Adjustment"]
        for name in named where !known.contains(name) {
            throw fail(
                "charge_category", "'\(name)' is not a FOCUS charge category (\(known.joined(separator: ", ")), joined by |)")
        }
        return AllocationLine(
            line: record.line, serviceName: field("service_name"), resourceIDPrefix: field("resource_id_prefix"),
            tagKey: tagKey, tagValue: tagValue,
            chargeCategories: named.isEmpty ? AllocationLine.defaultChargeCategories : Set(named),
            category: category, basis: basis, cost: cost)
    }

    /// The one line that takes `row`; nil when none does; an error naming both lines when two do.
    package func line(for row: PoolRow) throws(AllocationRulesError) -> AllocationLine? {
        var found: AllocationLine?
        for line in lines where line.matches(row) {
            if let first = found {
                throw AllocationRulesError(
                    file: path ?? "allocation.csv", line: first.line,
                    reason:
                        "lines \(first.line) and \(line.line) both match \(row.location) (ServiceName \"\(row.serviceName)\", "
                        + "ResourceId \"\(row.resourceID)\", ChargeCategory \(row.chargeCategory)): a pool row is spread once; "
                        + "make the lines exclusive")
            }
            found = line
        }
        return found
    }

    /// Every usage category some line spreads over: rows of these may come without a cost.
    package var categories: Set<String> { Set(lines.map(\.category)) }
}

/// An `allocation.csv` that cannot be used.
package struct AllocationRulesError: DiagnosticError, Sendable, Hashable {
    package var file: String
    package var line: Int
    package var reason: String
    package var diagnostic: Diagnostic { Diagnostic(reason, file: file, line: line) }
}
