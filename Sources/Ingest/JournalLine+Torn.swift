import Support

/// What is left of a journal line cut short by a write that failed part-way: the members
/// read whole before the cut.
///
/// A member counts only once the next one's key has been read, so a value cut in two (a
/// status of `20` for `202`, a time missing its last digits) is never taken for the value
/// written.
package struct TornJournalLine: Sendable, Hashable {
    package var notificationUUID: String?
    package var transactionID: String?
    /// The state as written, when it was read whole (any text: a torn line is not refused for it).
    package var state: String?
    package var at: Timestamp?
    package var asOf: Timestamp?
    package var httpStatus: Int?
    package var appleErrorCode: Int?
    package var attempt: Int?
    package var reason: String?
}

extension JournalLine {
    /// The members of a torn line read whole before it was cut; never throws, whatever the bytes.
    package static func torn(_ bytes: UnsafeRawBufferPointer) -> TornJournalLine {
        var line = TornJournalLine()
        // The member read last, kept until the next key shows it was written whole.
        var pending: ((inout TornJournalLine) -> Void)?
        var cursor = JSONCursor(bytes)
        try? cursor.members { cursor, key in
            pending?(&line)
            pending = nil
            if key == "notificationUUID" {
                let value = try cursor.string()
                pending = { $0.notificationUUID = value }
            } else if key == "transactionId" {
                let value = try cursor.optionalString()
                pending = { $0.transactionID = value }
            } else if key == "state" {
                let value = try cursor.string()
                pending = { $0.state = value }
            } else if key == "at" {
                let value = try cursor.timestamp()
                pending = { $0.at = value }
            } else if key == "as_of" {
                let value = try cursor.timestamp()
                pending = { $0.asOf = value }
            } else if key == "http_status" {
                let value = Int(try cursor.integer())
                pending = { $0.httpStatus = value }
            } else if key == "apple_error_code" {
                let value = Int(try cursor.integer())
                pending = { $0.appleErrorCode = value }
            } else if key == "attempt" {
                let value = Int(try cursor.integer())
                pending = { $0.attempt = value }
            } else if key == "reason" {
                let value = try cursor.optionalString()
                pending = { $0.reason = value }
            } else {
                try cursor.skip()
            }
        }
        return line
    }
}
