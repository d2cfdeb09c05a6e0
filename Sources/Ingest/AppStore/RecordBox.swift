/// A transaction record held by reference, never changed in place: the copy ingestion keeps is
/// the one the ledger holds, not a second one.
///
/// Its accessors are inlined into other stages: a field read through it is then one load, not a
/// copy of the whole record.
package final class RecordBox: Sendable, Hashable, Codable {
    package let record: TransactionRecord

    package init(_ record: TransactionRecord) { self.record = record }

    package static func == (left: RecordBox, right: RecordBox) -> Bool { left.record == right.record }
    package func hash(into hasher: inout Hasher) { hasher.combine(record) }

    /// Coded as the record itself.
    package init(from decoder: any Decoder) throws {
        record = try decoder.singleValueContainer().decode(TransactionRecord.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(record)
    }
}
