import Ingest
import Ledger
import Support

/// The half-open window [start, end) a report covers, and the folder label.
///
/// The as-of time is not part of it: it is the ledger's (`LedgerOptions.asOf`), held once in
/// the run's options (`RunOptions.asOf`).
package struct ReportWindow: Sendable, Hashable, Codable {
    package var start: Timestamp
    package var end: Timestamp
    /// `YYYY-MM` for a calendar month, else `FROM_TO` with dates.
    package var label: String
    /// True for a calendar month (`--month`), false for any other window.
    package var isCalendarMonth: Bool

    package init(start: Timestamp, end: Timestamp, label: String, isCalendarMonth: Bool = false) {
        self.start = start
        self.end = end
        self.label = label
        self.isCalendarMonth = isCalendarMonth
    }

    /// The calendar month `YYYY-MM`.
    package init?(month text: String) {
        guard text.utf8.count == 7, let first = TimestampParser.parseDate(text + "-01") else { return nil }
        self.init(
            start: first.start, end: CivilDate.firstOfMonth(first, offset: 1).start, label: text,
            isCalendarMonth: true)
    }

    package func contains(_ t: Timestamp) -> Bool { start <= t && t < end }

    /// The calendar month before this one, for the headline's "up or down"; nil for a window
    /// that is not a calendar month (it has no month before it to compare with).
    package var previousMonth: ReportWindow? {
        guard isCalendarMonth else { return nil }
        let first = CivilDate.firstOfMonth(start.civilDate, offset: -1)
        return ReportWindow(start: first.start, end: start, label: CivilMonth(first).description, isCalendarMonth: true)
    }
}
