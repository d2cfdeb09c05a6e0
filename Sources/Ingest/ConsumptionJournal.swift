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
    package var at: Timestamp
    package var httpStatus: Int?
    package var appleErrorCode: Int?
    /// The exact JSON body sent (compact), on `sending` and on the answer that follows.
    package var body: String?
    package var attempt: Int
    package var reason: String?

    package init(
        notificationUUID: String, transactionID: String, state: State, at: Timestamp, httpStatus: Int? = nil,
        appleErrorCode: Int? = nil, body: String? = nil, attempt: Int, reason: String? = nil
    ) {
        self.notificationUUID = notificationUUID
        self.transactionID = transactionID
        self.state = state
        self.at = at
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
        if let oldest, let newest {
            members.append(("oldest", .string(oldest.description)))
            members.append(("newest", .string(newest.description)))
            members.append(
                ("reason", .string("\(missed) requests whose 12 hours ended before the journal began, with no answer sent")))
        }
        return JSONValue.object(members).compact + "\n"
    }
}

/// A damaged journal: never skipped, since one answer per request depends on every line.
package struct JournalError: DiagnosticError {
    package var path: String
    package var line: Int
    package var reason: String

    package var diagnostic: Diagnostic {
        Diagnostic(
            reason + "; the journal must be repaired by hand (each line one JSON event), or moved aside to start anew",
            file: path, line: line)
    }
}

/// The journal of `respond` (JSON lines, appended and flushed): every event of every request,
/// and for each request its latest event.
///
/// Only the tool writes it, a whole line a write, so the one line it may find damaged by its
/// own hand is the last, cut short by a write that failed part-way (a full disk): that line
/// has no end, and it named a request that was never sent (its `sending` line was not on disk
/// when the request would have gone). Such a line is left out, said in `recovered`, and
/// replaced by the next append. A damaged line anywhere else, or one that ends, is refused.
package struct ConsumptionJournal: Sendable {
    package var path: String
    /// The last event of each request, by notification UUID.
    package private(set) var latest: [String: JournalEvent] = [:]
    /// The first `sent` event of each request: when it was answered.
    package private(set) var firstSent: [String: JournalEvent] = [:]
    /// Events read, for attempt numbers.
    package private(set) var attempts: [String: Int] = [:]
    /// The journal's first line, when it has one (journals written before 0.14.0 do not: every
    /// request they missed has a line of its own).
    package private(set) var start: JournalStart?
    /// No line at all yet: the run that writes the first begins the journal.
    package var isEmpty: Bool { wholeLength == 0 }
    /// What was mended on reading (a torn last line left out, access tightened), for a warning.
    package private(set) var recovered: [String] = []
    /// Bytes of whole lines: the next append starts here (a torn tail after it is cut off).
    private var wholeLength = 0
    /// The last line is whole but lacks its line feed: the next append writes one first.
    private var lacksLineFeed = false

    /// Reads the journal at `path`; a missing file is an empty journal.
    ///
    /// A link is refused: the journal is a file the tool writes, never through a link it did not make.
    package init(path: String) throws {
        self.path = path
        guard FileSystem.kind(path) != .missing || FileSystem.isSymbolicLink(path) else { return }
        let file = try FileDescriptor.openOwnForReading(path)
        let bytes = try file.readAll()
        var events: [JournalEvent] = []
        var start = 0
        var line = 0
        try bytes.withUnsafeBytes { all in
            while start < all.count {
                line += 1
                let end = all[start...].firstIndex(of: 0x0A) ?? all.count
                let ended = end < all.count
                var content = UnsafeRawBufferPointer(rebasing: all[start..<end])
                if content.last == 0x0D { content = UnsafeRawBufferPointer(rebasing: content.dropLast()) }
                if !content.isEmpty {
                    do {
                        if let start = try Self.start(content) {
                            self.start = self.start ?? start
                        } else {
                            events.append(try Self.event(content))
                        }
                    } catch let error as JSONError {
                        guard !ended else { throw JournalError(path: path, line: line, reason: error.description) }
                        recovered.append(
                            "\(path):\(line): the journal's last line was cut short (a write that failed part-way, such as on a "
                                + "full disk); the request it named was not sent, so it is left out and sent again")
                        break
                    }
                }
                wholeLength = ended ? end + 1 : end
                lacksLineFeed = !ended
                start = end + 1
            }
        }
        for event in events { note(event) }
    }

    private mutating func note(_ event: JournalEvent) {
        latest[event.notificationUUID] = event
        attempts[event.notificationUUID, default: 0] = max(attempts[event.notificationUUID] ?? 0, event.attempt)
        if event.state == .sent, firstSent[event.notificationUUID] == nil { firstSent[event.notificationUUID] = event }
    }

    /// Opens the journal to write it: owner-only (access others had is taken away, and said),
    /// a torn last line cut off, a missing last line feed written.
    package mutating func prepareForWriting() throws {
        let file = try FileDescriptor.openForAppending(path)
        if try file.makeOwnerOnly() {
            recovered.append(
                "\(path): group or others could read the journal; it is now readable by its owner only (0600), as respond keeps it"
            )
        }
        if try file.size() > wholeLength { try file.truncate(to: wholeLength) }
        if lacksLineFeed {
            try [UInt8(0x0A)].withUnsafeBytes { try file.write($0) }
            wholeLength += 1
            lacksLineFeed = false
        }
        try file.synchronize()
    }

    /// Writes the journal's first line, flushed, before anything else.
    package mutating func begin(_ start: JournalStart) throws {
        precondition(isEmpty, "a journal begins once")
        let file = try FileDescriptor.openForAppending(path)
        let bytes = Array(start.line.utf8)
        do {
            try bytes.withUnsafeBytes { try file.write($0) }
            try file.synchronize()
        } catch {
            try? file.truncate(to: wholeLength)
            throw error
        }
        wholeLength += bytes.count
        self.start = start
    }

    /// Appends `event` and flushes it to disk before returning.
    package mutating func append(_ event: JournalEvent) throws {
        try append(contentsOf: [event])
    }

    /// Appends `events` in one write and one flush: for events no request waits on (`missed`,
    /// `skipped`), which a first run on a long history has thousands of.
    ///
    /// A write that fails part-way is taken back where the file system lets it, so the journal
    /// ends with a whole line; where it does not, the next run recognises the torn line.
    package mutating func append(contentsOf events: [JournalEvent]) throws {
        guard !events.isEmpty else { return }
        let file = try FileDescriptor.openForAppending(path)
        let bytes = Array(events.map(\.line).joined().utf8)
        do {
            try bytes.withUnsafeBytes { try file.write($0) }
            try file.synchronize()
        } catch {
            try? file.truncate(to: wholeLength)
            throw error
        }
        wholeLength += bytes.count
        for event in events { note(event) }
    }

    /// The journal's start line, or nil for any other line (one with no `journal_start`).
    package static func start(_ bytes: UnsafeRawBufferPointer) throws -> JournalStart? {
        var begins: Timestamp?
        var at: Timestamp?
        var count = 0
        var oldest: Timestamp?
        var newest: Timestamp?
        var cursor = JSONCursor(bytes)
        try cursor.members { cursor, key in
            if key == "journal_start" {
                begins = try cursor.timestamp()
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
        (start.missed, start.oldest, start.newest) = (count, oldest, newest)
        return start
    }

    /// One line of the journal; a JSONError says what is wrong with it.
    package static func event(_ bytes: UnsafeRawBufferPointer) throws -> JournalEvent {
        var uuid: String?
        var transaction = ""
        var state: JournalEvent.State?
        var at: Timestamp?
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
            notificationUUID: uuid, transactionID: transaction, state: state, at: at, httpStatus: status, appleErrorCode: code,
            body: body, attempt: attempt, reason: reason)
    }
}
