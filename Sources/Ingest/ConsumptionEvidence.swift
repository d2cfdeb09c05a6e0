import Support

/// Apple's `deliveryStatus` values for a consumption response.
package enum DeliveryStatus: String, Sendable, Hashable, CaseIterable, Codable {
    case delivered = "DELIVERED"
    case undeliveredQualityIssue = "UNDELIVERED_QUALITY_ISSUE"
    case undeliveredWrongItem = "UNDELIVERED_WRONG_ITEM"
    case undeliveredServerOutage = "UNDELIVERED_SERVER_OUTAGE"
    case undeliveredOther = "UNDELIVERED_OTHER"
}

/// Facts for answering consumption requests that cost rows cannot show: whether the customer
/// agreed to share consumption data (`consent.csv`) and what the app knows about delivery
/// (`deliveries.csv`).
///
/// Both files are optional.
package struct ConsumptionEvidence: Sendable, Codable {
    /// Per account, (when, consented) sorted by time.
    package var consent: [String: [(at: Timestamp, value: Bool)]] = [:]
    /// Per transaction id, (when, status) sorted by time.
    package var deliveries: [String: [(at: Timestamp, value: DeliveryStatus)]] = [:]

    package init() {}

    private struct Statement<Value: Codable>: Codable {
        var key: String
        var at: Timestamp
        var value: Value
    }

    private enum CodingKeys: String, CodingKey { case consent, deliveries }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        for entry in try container.decode([Statement<Bool>].self, forKey: .consent) {
            consent[entry.key, default: []].append((entry.at, entry.value))
        }
        for entry in try container.decode([Statement<DeliveryStatus>].self, forKey: .deliveries) {
            deliveries[entry.key, default: []].append((entry.at, entry.value))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(
            consent.keys.sorted().flatMap { key in (consent[key] ?? []).map { Statement(key: key, at: $0.at, value: $0.value) } },
            forKey: .consent)
        try container.encode(
            deliveries.keys.sorted().flatMap { key in
                (deliveries[key] ?? []).map { Statement(key: key, at: $0.at, value: $0.value) }
            }, forKey: .deliveries)
    }

    /// The account's consent in force at `t` (the latest statement at or before it); none is no.
    package func consented(account: String, at t: Timestamp) -> Bool {
        consent[account]?.last { $0.at <= t }?.value ?? false
    }

    /// The latest delivery status recorded for the transaction at or before `t`.
    package func delivery(transaction: String, at t: Timestamp) -> DeliveryStatus? {
        deliveries[transaction]?.last { $0.at <= t }?.value
    }

    static let consentPurpose = "consent.csv needs account_id,consented,at"
    static let deliveryPurpose = "deliveries.csv needs transaction_id,status,at"

    package static func read(consent consentPath: String?, deliveries deliveryPath: String?, rejects: RejectLog) throws
        -> ConsumptionEvidence
    {
        var evidence = ConsumptionEvidence()
        let flags = ["true": true, "yes": true, "1": true, "false": false, "no": false, "0": false]
        if let path = consentPath {
            evidence.consent = try readDatedFacts(
                path: path, key: "account_id", value: "consented", purpose: consentPurpose, rejects: rejects,
                invalid: "not true or false"
            ) { flags[$0.lowercased()] }
        }
        if let path = deliveryPath {
            evidence.deliveries = try readDatedFacts(
                path: path, key: "transaction_id", value: "status", purpose: deliveryPurpose, rejects: rejects,
                invalid: "not one of \(DeliveryStatus.allCases.map(\.rawValue).joined(separator: ", "))"
            ) { DeliveryStatus(rawValue: $0) }
        }
        for key in evidence.consent.keys { evidence.consent[key]?.sort { $0.at < $1.at } }
        for key in evidence.deliveries.keys { evidence.deliveries[key]?.sort { $0.at < $1.at } }
        return evidence
    }

    /// Reads `KEY,VALUE,at` rows (both evidence files have this shape) into dated facts per
    /// key; a row with an empty key, a value `parse` refuses or a bad time is a reject.
    private static func readDatedFacts<Value>(
        path: String, key: String, value: String, purpose: String, rejects: RejectLog, invalid: String,
        parse: (String) -> Value?
    ) throws -> [String: [(at: Timestamp, value: Value)]] {
        var facts: [String: [(at: Timestamp, value: Value)]] = [:]
        var columns = (key: 0, value: 0, at: 0)
        try readSmallCSV(path: path, purpose: purpose) { header, record in
            func reject(_ column: Int, _ name: String, _ reason: String) throws {
                let shown = column < record.count ? record.string(column) : ""
                try rejects.record(Reject(file: path, line: record.line, field: name, value: shown, reason: reason))
            }
            guard record.count == header.names.count else {
                return try reject(record.count, "", "row has \(record.count) fields but the header has \(header.names.count)")
            }
            let name = record.string(columns.key).trimmingSpaces
            guard !name.isEmpty else { return try reject(columns.key, key, "empty \(key)") }
            guard let parsed = parse(record.string(columns.value).trimmingSpaces) else {
                return try reject(columns.value, value, invalid)
            }
            guard let at = TimestampParser.parse(record[columns.at]) else {
                return try reject(columns.at, "at", "not a timestamp")
            }
            facts[name, default: []].append((at, parsed))
        } header: { header in
            columns = (
                try header.require(key, file: path, purpose: purpose),
                try header.require(value, file: path, purpose: purpose),
                try header.require("at", file: path, purpose: purpose)
            )
        }
        return facts
    }
}
