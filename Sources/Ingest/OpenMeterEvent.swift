import Support

/// One OpenMeter usage event: a CloudEvents JSON object on one line, as OpenMeter ingests and
/// exports them (`{"specversion": "1.0", "id": ..., "source": ..., "type": ..., "subject": ...,
/// "time": ..., "data": {...}}`).
///
/// `subject` is the customer (the account), `type` the meter's event type (the category), and
/// the quantity is one member of `data`, named by `--usage-field` (a number, or a number in a
/// string as OpenMeter's examples write them).
struct OpenMeterEvent {
    package var id = ""
    package var source = ""
    package var type = ""
    package var subject = ""
    package var time = ""
    /// The usage field's value as written; nil when `data` has no such member.
    package var quantity: String?

    /// The member of `data` that holds the quantity when none is named.
    static let defaultUsageField = "value"

    package init(line bytes: UnsafeRawBufferPointer, usageField: String) throws {
        var cursor = JSONCursor(bytes)
        let wanted = Array(usageField.utf8)
        try cursor.members { cursor, key in
            if key == "id" {
                id = try Self.text(&cursor)
            } else if key == "source" {
                source = try cursor.string()
            } else if key == "type" {
                type = try cursor.string()
            } else if key == "subject" {
                subject = try cursor.optionalString() ?? ""
            } else if key == "time" {
                time = try cursor.string()
            } else if key == "data", cursor.isObject() {
                try cursor.members { cursor, key in
                    if key.bytes.elementsEqual(wanted) {
                        quantity = try Self.text(&cursor)
                    } else {
                        try cursor.skip()
                    }
                }
            } else {
                try cursor.skip()
            }
        }
        try cursor.finish()
    }

    /// A string's contents, or a number as written.
    private static func text(_ cursor: inout JSONCursor) throws -> String {
        if cursor.isString() { return try cursor.string() }
        return String(decoding: try cursor.valueBytes(), as: UTF8.self)
    }
}
