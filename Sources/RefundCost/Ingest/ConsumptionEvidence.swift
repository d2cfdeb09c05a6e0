/// Apple's `deliveryStatus` values for a consumption response.
package enum DeliveryStatus: String, Sendable, Hashable, CaseIterable {
    case delivered = "DELIVERED"
    case undeliveredQualityIssue = "UNDELIVERED_QUALITY_ISSUE"
    case undeliveredWrongItem = "UNDELIVERED_WRONG_ITEM"
    case undeliveredServerOutage = "UNDELIVERED_SERVER_OUTAGE"
    case undeliveredOther = "UNDELIVERED_OTHER"
}

/// Facts for answering consumption requests that cost rows cannot show: whether the customer
/// agreed to share consumption data (`consent.csv`) and what the app knows about delivery
/// (`deliveries.csv`). Both files are optional.
package struct ConsumptionEvidence: Sendable {
    /// Per account, (when, consented) sorted by time.
    package var consent: [String: [(at: Timestamp, consented: Bool)]] = [:]
    /// Per transaction id, (when, status) sorted by time.
    package var deliveries: [String: [(at: Timestamp, status: DeliveryStatus)]] = [:]

    package init() {}

    /// The account's consent in force at `t` (the latest statement at or before it); none is no.
    package func consented(account: String, at t: Timestamp) -> Bool {
        consent[account]?.last { $0.at <= t }?.consented ?? false
    }

    /// The latest delivery status recorded for the transaction at or before `t`.
    package func delivery(transaction: String, at t: Timestamp) -> DeliveryStatus? {
        deliveries[transaction]?.last { $0.at <= t }?.status
    }

    static let consentPurpose = "consent.csv needs account_id,consented,at"
    static let deliveryPurpose = "deliveries.csv needs transaction_id,status,at"

    package static func read(consent consentPath: String?, deliveries deliveryPath: String?, rejects: RejectLog) throws -> ConsumptionEvidence {
        var evidence = ConsumptionEvidence()
        if let path = consentPath {
            var columns = (account: 0, consented: 0, at: 0)
            try readSmallCSV(path: path, purpose: consentPurpose) { header, record in
                func reject(_ column: Int, _ name: String, _ reason: String) throws {
                    try rejects.record(Reject(file: path, line: record.line, field: name, value: column < record.count ? record.string(column) : "", reason: reason))
                }
                guard record.count == header.names.count else { return try reject(record.count, "", "row has \(record.count) fields but the header has \(header.names.count)") }
                let account = record.string(columns.account).trimmingSpaces
                guard !account.isEmpty else { return try reject(columns.account, "account_id", "empty account_id") }
                let flag = record.string(columns.consented).trimmingSpaces.lowercased()
                guard let consented = ["true": true, "yes": true, "1": true, "false": false, "no": false, "0": false][flag] else {
                    return try reject(columns.consented, "consented", "not true or false")
                }
                guard let at = TimestampParser.parse(record[columns.at]) else { return try reject(columns.at, "at", "not a timestamp") }
                evidence.consent[account, default: []].append((at, consented))
            } header: { header in
                columns = (
                    try header.require("account_id", file: path, purpose: consentPurpose),
                    try header.require("consented", file: path, purpose: consentPurpose),
                    try header.require("at", file: path, purpose: consentPurpose)
                )
            }
        }
        if let path = deliveryPath {
            var columns = (transaction: 0, status: 0, at: 0)
            try readSmallCSV(path: path, purpose: deliveryPurpose) { header, record in
                func reject(_ column: Int, _ name: String, _ reason: String) throws {
                    try rejects.record(Reject(file: path, line: record.line, field: name, value: column < record.count ? record.string(column) : "", reason: reason))
                }
                guard record.count == header.names.count else { return try reject(record.count, "", "row has \(record.count) fields but the header has \(header.names.count)") }
                let transaction = record.string(columns.transaction).trimmingSpaces
                guard !transaction.isEmpty else { return try reject(columns.transaction, "transaction_id", "empty transaction_id") }
                guard let status = DeliveryStatus(rawValue: record.string(columns.status).trimmingSpaces) else {
                    return try reject(columns.status, "status", "not one of \(DeliveryStatus.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                guard let at = TimestampParser.parse(record[columns.at]) else { return try reject(columns.at, "at", "not a timestamp") }
                evidence.deliveries[transaction, default: []].append((at, status))
            } header: { header in
                columns = (
                    try header.require("transaction_id", file: path, purpose: deliveryPurpose),
                    try header.require("status", file: path, purpose: deliveryPurpose),
                    try header.require("at", file: path, purpose: deliveryPurpose)
                )
            }
        }
        for key in evidence.consent.keys { evidence.consent[key]?.sort { $0.at < $1.at } }
        for key in evidence.deliveries.keys { evidence.deliveries[key]?.sort { $0.at < $1.at } }
        return evidence
    }
}
