import Attribution
import Ingest
import Support

/// A damaged journal: never skipped, since one answer per request depends on every line.
struct JournalError: DiagnosticError {
    package var path: String
    package var line: Int
    package var reason: String

    package var diagnostic: Diagnostic {
        Diagnostic(
            reason + "; the journal must be repaired by hand (each line one JSON event), or moved aside to start anew",
            file: path, line: line)
    }
}

/// A journal of the other store's answers, given where this one's was meant.
struct JournalStoreError: DiagnosticError {
    package var path: String
    package var found: String?
    package var wanted: String?
    /// A report reading it (`--journal`, `--play-journal`), not respond answering into it.
    package var reading = false

    package var diagnostic: Diagnostic {
        let whose = { (store: String?) in store.map { "respond --store \($0)" } ?? "respond (Apple's requests)" }
        let advice =
            reading
            ? (found == nil ? "give it to report --journal" : "give it to report --play-journal")
            : "give this run its own --journal"
        return Diagnostic(
            "this is the journal of \(whose(found)), not of \(whose(wanted)): each store answers into a journal of its own; "
                + advice,
            file: path, line: 1)
    }
}

/// The journal of `respond` (JSON lines, appended and flushed): every event of every request,
/// and for each request its latest event.
///
/// Only the tool writes it, a whole line a write, so the one line it may find damaged by its
/// own hand is the last, cut short by a write that failed part-way (a full disk): that line
/// has no end. Which line it was decides what it means (`TornLineRecovery`): a `sending` line,
/// or a `missed` or `skipped` one, named a request that was never sent, and is left out; the
/// answer line after a request's `sending` line (`sent`, `refused`, `failed`) says what Apple
/// did with a request that went out, and is written again whole as far as it was read. Either
/// way it is said in `recovered`. A damaged line anywhere else, or one that ends, is refused.
package struct ConsumptionJournal: Sendable {
    package var path: String
    /// The last event of each request, by notification UUID.
    package private(set) var latest: [String: JournalEvent] = [:]
    /// The first `sent` event of each request: when it was answered.
    private(set) var firstSent: [String: JournalEvent] = [:]
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
    /// The run's `--as-of`, journaled beside each event's real time (nil on the clock).
    package var asOf: Timestamp?
    /// Apple's answer read from a torn last line, to be written again whole in its place.
    private var mended: JournalEvent?
    /// Refusals and misses journaled since the last run's summary line: a run exits 1 for
    /// them until its own summary follows them (`JournalSummary`).
    package private(set) var unreported: [JournalEvent] = []
    /// Event lines since the last summary line: a run that finds any ends with a summary.
    package private(set) var eventsSinceSummary = 0
    /// Requests the journal has answered for good (`sent`, `refused` or `skipped`).
    package var answered: Int { latest.values.filter { [.sent, .refused, .skipped].contains($0.state) }.count }

    /// What a report reads of it: each request's last event and first answer taken.
    package var entries: [String: JournalEntry] {
        latest.mapValues { last in
            let sent = firstSent[last.notificationUUID]
            return JournalEntry(
                state: last.state, lastAt: last.asOf ?? last.at, appleErrorCode: last.appleErrorCode,
                sentAt: sent.map { $0.asOf ?? $0.at },
                sentPreference: sent?.sentField("refundPreference").flatMap(RefundPreference.init(rawValue:)),
                sentPreferenceName: sent?.sentField("refundPreference"))
        }
    }

    /// Refuses a journal its first line gives to another store than `store` (nil: Apple's).
    ///
    /// A journal without its first line (Apple's, before 0.14.0) is Apple's: a store's other
    /// than Apple's always has one.
    package func requireStore(_ store: String?, reading: Bool = false) throws {
        let found = start?.store
        if found != store && (start != nil || (store != nil && !isEmpty)) {
            throw JournalStoreError(path: path, found: found, wanted: store, reading: reading)
        }
    }

    /// Reads the journal at `path`; a missing file is an empty journal.
    ///
    /// A link is refused: the journal is a file the tool writes, never through a link it did not make.
    package init(path: String) throws {
        self.path = path
        guard FileSystem.kind(path) != .missing || FileSystem.isSymbolicLink(path) else { return }
        let file = try FileDescriptor.openOwnForReading(path)
        let bytes = try file.readAll()
        // The events in order, a summary line as nil.
        var events: [JournalEvent?] = []
        var start = 0
        var line = 0
        // The event of the last whole line (nil when that line was not an event).
        var lastEvent: JournalEvent?
        try bytes.withUnsafeBytes { all in
            while start < all.count {
                line += 1
                let end = all[start...].firstIndex(of: 0x0A) ?? all.count
                let ended = end < all.count
                var content = UnsafeRawBufferPointer(rebasing: all[start..<end])
                if content.last == 0x0D { content = UnsafeRawBufferPointer(rebasing: content.dropLast()) }
                if !content.isEmpty {
                    do {
                        if let start = try JournalLine.start(content) {
                            self.start = self.start ?? start
                            lastEvent = nil
                        } else if try JournalLine.summary(content) != nil {
                            events.append(nil)
                            lastEvent = nil
                        } else {
                            let event = try JournalLine.event(content)
                            events.append(event)
                            lastEvent = event
                        }
                    } catch let error as JSONError {
                        guard !ended else { throw JournalError(path: path, line: line, reason: error.description) }
                        let recovery = TornLineRecovery(JournalLine.torn(content), after: lastEvent)
                        recovered.append("\(path):\(line): " + recovery.warning)
                        if recovery.isSummary { events.append(nil) }
                        if let answer = recovery.answer {
                            events.append(answer)
                            mended = answer
                        }
                        break
                    }
                }
                wholeLength = ended ? end + 1 : end
                lacksLineFeed = !ended
                start = end + 1
            }
        }
        for event in events {
            if let event { note(event) } else { noteSummary() }
        }
    }

    private mutating func noteSummary() {
        unreported = []
        eventsSinceSummary = 0
    }

    private mutating func note(_ event: JournalEvent) {
        eventsSinceSummary += 1
        if event.state == .refused || event.state == .missed { unreported.append(event) }
        latest[event.notificationUUID] = event
        attempts[event.notificationUUID, default: 0] = max(attempts[event.notificationUUID] ?? 0, event.attempt)
        if event.state == .sent, firstSent[event.notificationUUID] == nil { firstSent[event.notificationUUID] = event }
    }

    /// Opens the journal to write it: owner-only (access others had is taken away, and said),
    /// a torn last line cut off, a missing last line feed written.
    mutating func prepareForWriting() throws {
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
        // Apple's answer read from the torn line goes back whole where the torn line was.
        if let mended {
            try write(Array(mended.line.utf8))
            self.mended = nil
        }
    }

    /// Writes the journal's first line, flushed, before anything else.
    package mutating func begin(_ start: JournalStart) throws {
        precondition(isEmpty, "a journal begins once")
        try write(Array(start.line.utf8))
        self.start = start
    }

    /// Ends a run's part of the journal with its summary line, flushed: what the journal holds
    /// up to it was reported.
    package mutating func summarize(_ summary: JournalSummary) throws {
        try write(Array(summary.line.utf8))
        noteSummary()
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
        let events = events.map { event in
            var event = event
            event.asOf = event.asOf ?? asOf
            return event
        }
        try write(Array(events.map(\.line).joined().utf8))
        for event in events { note(event) }
    }

    /// Appends whole lines in one write and flushes them; a write that fails part-way is taken
    /// back where the file system lets it.
    private mutating func write(_ bytes: [UInt8]) throws {
        let file = try FileDescriptor.openForAppending(path)
        do {
            try bytes.withUnsafeBytes { try file.write($0) }
            try file.synchronize()
        } catch {
            try? file.truncate(to: wholeLength)
            throw error
        }
        wholeLength += bytes.count
    }
}
