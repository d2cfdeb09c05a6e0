import Support

/// A billing period: what `products.csv` says (`P1M`), or what a transaction's dates imply.
package struct BillingPeriod: Sendable, Hashable, CustomStringConvertible, Codable {
    /// ISO-8601 as written: `P1W`, `P1M`, `P1Y`, ...
    package var iso: String
    /// Its length in days, months counted as 30 and years as 365 (P6M is 182).
    package var days: Int64

    package static let standard: [BillingPeriod] = [
        BillingPeriod(iso: "P1W", days: 7), BillingPeriod(iso: "P1M", days: 30), BillingPeriod(iso: "P2M", days: 60),
        BillingPeriod(iso: "P3M", days: 90), BillingPeriod(iso: "P6M", days: 182), BillingPeriod(iso: "P1Y", days: 365),
    ]

    package init(iso: String, days: Int64) {
        self.iso = iso
        self.days = days
    }

    /// Parses `PnD`, `PnW`, `PnM`, `PnY`.
    package init?(iso text: String) {
        if let known = BillingPeriod.standard.first(where: { $0.iso == text }) {
            self = known
            return
        }
        guard text.count >= 3, text.hasPrefix("P"), let unit = text.last, let count = Int64(text.dropFirst().dropLast()),
            (1...1200).contains(count)
        else { return nil }
        switch unit {
        case "D": days = count
        case "W": days = count * 7
        case "M": days = count == 6 ? 182 : count * 30
        case "Y": days = count * 365
        default: return nil
        }
        iso = text
    }

    /// The standard period nearest to a span (a transaction's `expiresDate - purchaseDate`).
    package static func nearest(to span: TimeSpan) -> BillingPeriod {
        let days = Double(span.milliseconds) / Double(Timestamp.millisecondsPerDay)
        return standard.min { abs(Double($0.days) - days) < abs(Double($1.days) - days) } ?? standard[1]
    }

    package var span: TimeSpan { .days(days) }
    package var description: String { iso }
}

/// One row of `products.csv`.
package struct Product: Sendable, Hashable, Codable {
    package var productID: String
    package var rawType: String?
    package var period: BillingPeriod?
    /// Units one purchase of a consumable grants (times the transaction's quantity).
    package var credits: Int64?
    /// `sample_content` (optional column): the product lets customers try it before they buy.
    package var sampleContent = false

    package var type: ProductType? { rawType.flatMap(ProductType.init(rawValue:)) }
}

/// Reads the optional `products.csv` (`product_id,type,period,credits`, optionally `sample_content`).
package enum ProductCatalogReader {
    static let purpose = "products.csv needs product_id and may have type, period and credits"

    package static func read(path: String, rejects: RejectLog) throws -> [String: Product] {
        var products: [String: Product] = [:]
        try readSmallCSV(path: path, purpose: purpose) { columns, record in
            func field(_ name: String) -> String? {
                guard let index = columns.index(name), index < record.count else { return nil }
                let value = record.string(index).trimmingSpaces
                return value.isEmpty ? nil : value
            }
            func reject(_ name: String, _ value: String, _ reason: String) throws {
                try rejects.record(Reject(file: path, line: record.line, field: name, value: value, reason: reason))
            }
            guard let id = field("product_id") else { return try reject("product_id", "", "empty product_id") }
            var product = Product(productID: id, rawType: field("type"), period: nil, credits: nil)
            if let type = product.rawType, ProductType(rawValue: type) == nil {
                let known = ProductType.allCases.map(\.rawValue).joined(separator: ", ")
                return try reject("type", type, "not one of Apple's types (\(known))")
            }
            if let text = field("period") {
                guard let period = BillingPeriod(iso: text) else {
                    return try reject("period", text, "not an ISO-8601 period like P1W, P1M or P1Y")
                }
                product.period = period
            }
            if let text = field("credits") {
                guard let credits = Int64(text), (0...1_000_000_000).contains(credits) else {
                    return try reject("credits", text, "not a whole number of credits from 0 to 1000000000")
                }
                product.credits = credits
            }
            if let text = field("sample_content") {
                switch text.lowercased() {
                case "true", "yes", "1": product.sampleContent = true
                case "false", "no", "0", "": product.sampleContent = false
                default: return try reject("sample_content", text, "not true or false")
                }
            }
            if products[id] != nil { return try reject("product_id", id, "listed twice; the first row is kept") }
            products[id] = product
        } header: { columns in
            _ = try columns.require("product_id", file: path, purpose: purpose)
        }
        return products
    }
}
