import Support

/// What `respond` did about one consumption request, one event a line of the journal.
package struct JournalEvent: Sendable, Hashable {
    package enum State: String, Sendable, Hashable, CaseIterable {
        /// About to send `body`; written and flushed before the request goes out.
        case sending
        /// Apple took the answer (202).
        case sent
        /// Apple refused it (4xx); `apple_error_code` says why.
        case refused
        /// No answer after the retries (5xx, network); a later run tries again while time is left.
        case failed
        /// Not sent on purpose: `reason` says why (no consent, an answer Apple's rules forbid).
        case skipped
        /// The 12 hours passed with no answer sent.
        case missed

        /// A request whose last event is one of these gets nothing more.
        package var isFinal: Bool { self == .sent || self == .refused || self == .skipped || self == .missed }
    }

    package var notificationUUID: String
    package var transactionID: String
    package var state: State
    /// The real time of the event.
    package var at: Timestamp
    /// The run's `--as-of` time, when it was given one (a trial over past data).
    ///
    /// What a report judges the answer's time by; nil on the clock.
    package var asOf: Timestamp?
    package var httpStatus: Int?
    package var appleErrorCode: Int?
    /// The exact JSON body sent (compact), on `sending` and on the answer that follows.
    package var body: String?
    package var attempt: Int
    package var reason: String?

    package init(
        notificationUUID: String, transactionID: String, state: State, at: Timestamp, asOf: Timestamp? = nil,
        httpStatus: Int? = nil, appleErrorCode: Int? = nil, body: String? = nil, attempt: Int, reason: String? = nil
    ) {
        self.notificationUUID = notificationUUID
        self.transactionID = transactionID
        self.state = state
        self.at = at
        self.asOf = asOf
        self.httpStatus = httpStatus
        self.appleErrorCode = appleErrorCode
        self.body = body
        self.attempt = attempt
        self.reason = reason
    }

    /// A string member of the body sent (`refundPreference`), when there is a body that has it.
    package func sentField(_ name: String) -> String? {
        guard var body else { return nil }
        return body.withUTF8 { bytes -> String? in
            var found: String?
            var cursor = JSONCursor(UnsafeRawBufferPointer(bytes))
            try? cursor.members { cursor, key in
                if String(decoding: key.bytes, as: UTF8.self) == name, found == nil {
                    found = try cursor.optionalString()
                } else {
                    try cursor.skip()
                }
            }
            return found
        }
    }

    /// One line of the journal: absent values are left out.
    package var line: String {
        var members: [(String, JSONValue)] = [
            ("notificationUUID", .string(notificationUUID)), ("transactionId", .string(transactionID)),
            ("state", .string(state.rawValue)), ("at", .string(at.description)),
        ]
        if let asOf { members.append(("as_of", .string(asOf.description))) }
        if let httpStatus { members.append(("http_status", .integer(Int64(httpStatus)))) }
        if let appleErrorCode { members.append(("apple_error_code", .integer(Int64(appleErrorCode)))) }
        members.append(("attempt", .integer(Int64(attempt))))
        if let reason { members.append(("reason", .string(reason))) }
        var text = JSONValue.object(members).compact
        // The body goes in as the bytes that were sent, so a resend sends exactly them.
        if let body { text = String(text.dropLast()) + ",\"body\":" + body + "}" }
        return text + "\n"
    }
}

/// The first line of a journal: when it began, and the requests whose 12 hours had ended
/// before, unanswered, counted in one line (a first run on a long history does not write one
/// `missed` line for each).
///
/// Written as a `missed` line with a `count` when there were any, as a `started` line otherwise.
package struct JournalStart: Sendable, Hashable {
    /// Requests whose 12 hours ended at or before this time predate the journal.
    package var begins: Timestamp
    package var at: Timestamp
    package var missed = 0
    /// When Apple signed the oldest and the newest of them.
    package var oldest: Timestamp?
    package var newest: Timestamp?
    /// Whose requests the journal answers: nil for Apple's (every journal before 0.16.0), `play`
    /// for Google Play's refund reviews (`respond --store play`), so neither store's run, nor a
    /// report, takes the other's journal for its own.
    package var store: String?
    /// How long its store waits for an answer, in words, for the reason it journals.
    package var window = "12 hours"

    package init(begins: Timestamp, at: Timestamp) {
        self.begins = begins
        self.at = at
    }

    /// Counts a request signed at `signed` whose 12 hours ended before the journal began.
    package mutating func count(signed: Timestamp) {
        missed += 1
        oldest = min(oldest ?? signed, signed)
        newest = max(newest ?? signed, signed)
    }

    package var line: String {
        var members: [(String, JSONValue)] = [
            ("state", .string(missed > 0 ? "missed" : "started")), ("journal_start", .string(begins.description)),
            ("at", .string(at.description)), ("count", .integer(Int64(missed))),
        ]
        if let store { members.append(("store", .string(store))) }
        if let oldest, let newest {
            members.append(("oldest", .string(oldest.description)))
            members.append(("newest", .string(newest.description)))
            members.append(
                ("reason", .string("\(missed) requests whose \(window) ended before the journal began, with no answer sent")))
        }
        return JSONValue.object(members).compact + "\n"
    }
}

/// The journal's line format, read: the start line and the events.
///
/// `ConsumptionJournal`, which reads and appends the file, is respond's. A JSONError says what
/// is wrong with a line.
package enum JournalLine {
    /// The journal's start line, or nil for any other line (one with no `journal_start`).
    package static func start(_ bytes: UnsafeRawBufferPointer) throws -> JournalStart? {
        var begins: Timestamp?
        var at: Timestamp?
        var count = 0
        var oldest: Timestamp?
        var newest: Timestamp?
        var store: String?
        var cursor = JSONCursor(bytes)
        try cursor.members { cursor, key in
            if key == "journal_start" {
                begins = try cursor.timestamp()
            } else if key == "store" {
                store = try cursor.optionalString()
            } else if key == "at" {
                at = try cursor.timestamp()
            } else if key == "count" {
                count = Int(try cursor.integer())
            } else if key == "oldest" {
                oldest = try cursor.timestamp()
            } else if key == "newest" {
                newest = try cursor.timestamp()
            } else {
                try cursor.skip()
            }
        }
        try cursor.finish()
        guard let begins else { return nil }
        guard let at else { throw JSONError(reason: "no time", field: "at") }
        var start = JournalStart(begins: begins, at: at)
        (start.missed, start.oldest, start.newest, start.store) = (count, oldest, newest, store)
        return start
    }

    /// One line of the journal; a JSONError says what is wrong with it.
    package static func event(_ bytes: UnsafeRawBufferPointer) throws -> JournalEvent {
        var uuid: String?
        var transaction = ""
        var state: JournalEvent.State?
        var at: Timestamp?
        var asOf: Timestamp?
        var status: Int?
        var code: Int?
        var body: String?
        var attempt = 0
        var reason: String?
        var cursor = JSONCursor(bytes)
        try cursor.members { cursor, key in
            if key == "notificationUUID" {
                uuid = try cursor.string()
            } else if key == "transactionId" {
                transaction = try cursor.optionalString() ?? ""
            } else if key == "state" {
                let text = try cursor.string()
                guard let known = JournalEvent.State(rawValue: text) else {
                    throw JSONError(reason: "'\(text)' is not a journal state", field: "state")
                }
                state = known
            } else if key == "at" {
                at = try cursor.timestamp()
            } else if key == "as_of" {
                asOf = try cursor.timestamp()
            } else if key == "http_status" {
                status = Int(try cursor.integer())
            } else if key == "apple_error_code" {
                code = Int(try cursor.integer())
            } else if key == "body" {
                body = String(decoding: try cursor.valueBytes(), as: UTF8.self)
            } else if key == "attempt" {
                attempt = Int(try cursor.integer())
            } else if key == "reason" {
                reason = try cursor.optionalString()
            } else {
                try cursor.skip()
            }
        }
        try cursor.finish()
        guard let uuid, !uuid.isEmpty else { throw JSONError(reason: "no notificationUUID", field: "notificationUUID") }
        guard let state else { throw JSONError(reason: "no state", field: "state") }
        guard let at else { throw JSONError(reason: "no time", field: "at") }
        return JournalEvent(
            notificationUUID: uuid, transactionID: transaction, state: state, at: at, asOf: asOf, httpStatus: status,
            appleErrorCode: code, body: body, attempt: attempt, reason: reason)
    }
}
