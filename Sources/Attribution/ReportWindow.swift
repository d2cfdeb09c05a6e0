import Ingest
import Ledger
import Support

/// The half-open window [start, end) a report covers, the as-of time, and the folder label.
package struct ReportWindow: Sendable, Hashable {
    package var start: Timestamp
    package var end: Timestamp
    package var asOf: Timestamp
    /// `YYYY-MM` for a calendar month, else `FROM_TO` with dates.
    package var label: String
    /// True for a calendar month (`--month`), false for any other window.
    package var isCalendarMonth: Bool

    package init(start: Timestamp, end: Timestamp, asOf: Timestamp? = nil, label: String, isCalendarMonth: Bool = false) {
        self.start = start
        self.end = end
        self.asOf = asOf ?? end
        self.label = label
        self.isCalendarMonth = isCalendarMonth
    }

    /// The calendar month `YYYY-MM`.
    package init?(month text: String, asOf: Timestamp? = nil) {
        guard text.utf8.count == 7, let first = TimestampParser.parseDate(text + "-01") else { return nil }
        self.init(
            start: first.start, end: CivilDate.firstOfMonth(first, offset: 1).start, asOf: asOf, label: text,
            isCalendarMonth: true)
    }

    package func contains(_ t: Timestamp) -> Bool { start <= t && t < end }
}

/// Dense indices for product ids: 0 is the empty product (unentitled and unlinked rows), the
/// rest follow the sorted product ids of the ledger, so every worker agrees on them.
package struct ProductIndex: Sendable {
    package let names: [String]
    /// Per transaction index, its product's index.
    package let ofTransaction: [Int32]

    package init(ledger: Ledger) {
        // Fields read in place: a key path through the record would copy it whole.
        var seen = Set<String>()
        for position in ledger.transactions.indices { seen.insert(ledger.transactions[position].productID) }
        names = [""] + seen.sorted { $0.bytesPrecede($1) }
        let index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, Int32($0)) })
        ofTransaction = ledger.transactions.indices.map { index[ledger.transactions[$0].productID] ?? 0 }
    }

    package func of(transaction: Int32) -> Int { transaction < 0 ? 0 : Int(ofTransaction[Int(transaction)]) }
}
