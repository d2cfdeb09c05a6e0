import Support

/// One line of `allocation.csv`: which pool rows it takes, and the usage they are spread over.
///
/// `service_name,resource_id_prefix,tag,charge_category,category,basis,cost`: the first four
/// match pool rows (empty: any), `category` is the usage category the cost goes to, `basis` how
/// it is shared (`quantity` of the usage rows, or `rows`), `cost` which FOCUS cost is taken.
package struct AllocationLine: Sendable, Hashable, Codable {
    package var line: Int
    /// `ServiceName`, exactly; empty matches every service.
    package var serviceName: String
    /// A prefix of `ResourceId` (a bucket, a cluster's ARN); empty matches every resource.
    package var resourceIDPrefix: String
    /// `key=value` in `Tags`; `key` alone matches any value of that key; empty matches every row.
    package var tagKey: String
    package var tagValue: String?
    /// The FOCUS charge categories taken.
    ///
    /// When none are named, `Usage` and `Purchase`: a
    /// `Tax`, `Credit` or `Adjustment` row is spread only by a line that names it.
    package var chargeCategories: Set<String>
    /// The usage category of `costs/` the cost is spread over.
    package var category: String
    package var basis: AllocationBasis
    package var cost: PoolCostColumn

    package static let defaultChargeCategories: Set<String> = ["Usage", "Purchase"]

    /// True when the line takes `row`.
    package func matches(_ row: PoolRow) -> Bool {
        guard serviceName.isEmpty || row.serviceName == serviceName,
            row.resourceID.hasPrefix(resourceIDPrefix),
            chargeCategories.contains(row.chargeCategory)
        else { return false }
        if tagKey.isEmpty { return true }
        guard let value = row.tags[tagKey] else { return false }
        return tagValue.map { $0 == value } ?? true
    }
}

/// How a pool row's cost is shared among the usage rows of its period.
package enum AllocationBasis: String, Sendable, Hashable, Codable, CaseIterable {
    /// In proportion to each row's quantity (tokens, GPU seconds, bytes).
    case quantity
    /// Equally over the rows.
    case rows
}
