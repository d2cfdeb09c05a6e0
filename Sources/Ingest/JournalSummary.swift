import Support

/// The line a respond run ends the journal with, when it journaled anything: what it did, and
/// a mark that what the journal holds up to it was reported.
///
/// A run's exit status stays 1 for a refusal or a miss until a summary line follows it (and
/// while a request is failed, not yet sent), so a run killed after journaling a miss, before its
/// summary, leaves the miss for the next run to report. A run with nothing to journal writes no
/// summary: the journal does not grow every few minutes.
package struct JournalSummary: Sendable, Hashable {
    /// The real time the run ended, and its `--as-of` when it was given one.
    package var at: Timestamp
    package var asOf: Timestamp?
    /// What the run did: answers Apple took, refused, failed (to be sent again), requests it
    /// skipped, and requests whose 12 hours it found passed with no answer.
    package var sent = 0
    package var refused = 0
    package var failed = 0
    package var skipped = 0
    package var missed = 0
    /// The exit status the run gave.
    package var status: Int32 = 0

    package init(at: Timestamp, asOf: Timestamp?) {
        self.at = at
        self.asOf = asOf
    }

    /// The line as the journal holds it: `"state":"summary"`, and no `notificationUUID`.
    package var line: String {
        var members: [(String, JSONValue)] = [("state", .string("summary")), ("at", .string(at.description))]
        if let asOf { members.append(("as_of", .string(asOf.description))) }
        for (name, value) in [("sent", sent), ("refused", refused), ("failed", failed), ("skipped", skipped), ("missed", missed)]
        {
            members.append((name, .integer(Int64(value))))
        }
        members.append(("exit_status", .integer(Int64(status))))
        return JSONValue.object(members).compact + "\n"
    }
}

extension JournalLine {
    /// A run's summary line, or nil for any other line (one whose state is not `summary`).
    package static func summary(_ bytes: UnsafeRawBufferPointer) throws -> JournalSummary? {
        var state: String?
        var at: Timestamp?
        var asOf: Timestamp?
        var counts: [String: Int] = [:]
        var cursor = JSONCursor(bytes)
        try cursor.members { cursor, key in
            if key == "state" {
                state = try cursor.string()
            } else if key == "at" {
                at = try cursor.timestamp()
            } else if key == "as_of" {
                asOf = try cursor.timestamp()
            } else if key == "sent" || key == "refused" || key == "failed" || key == "skipped" || key == "missed"
                || key == "exit_status"
            {
                counts[String(decoding: key.bytes, as: UTF8.self)] = Int(try cursor.integer())
            } else {
                try cursor.skip()
            }
        }
        try cursor.finish()
        guard state == "summary" else { return nil }
        guard let at else { throw JSONError(reason: "no time", field: "at") }
        var summary = JournalSummary(at: at, asOf: asOf)
        summary.sent = counts["sent"] ?? 0
        summary.refused = counts["refused"] ?? 0
        summary.failed = counts["failed"] ?? 0
        summary.skipped = counts["skipped"] ?? 0
        summary.missed = counts["missed"] ?? 0
        summary.status = Int32(counts["exit_status"] ?? 0)
        return summary
    }
}
