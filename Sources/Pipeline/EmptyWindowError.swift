import Attribution
import Ingest
import Ledger
import Support

/// A window the data does not touch: no cost row and no App Store event in it.
///
/// An App Store event is a purchase, an expiry, a revocation or a notification signed. An all-zero report of such a month
/// looks like a quiet month; it is far more often the wrong `--month`.
struct EmptyWindowError: DiagnosticError {
    package var label: String
    /// The months cost rows and App Store events span, when there are any.
    var costMonths: ClosedRange<CivilMonth>?
    var appStoreMonths: ClosedRange<CivilMonth>?
    /// App Store records left out because Apple signed them after the window's as-of time.
    package var signedLater = 0

    package var diagnostic: Diagnostic {
        func span(_ range: ClosedRange<CivilMonth>?) -> String? {
            range.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound) to \($0.upperBound)" }
        }
        var held: [String] = []
        if let costs = span(costMonths) { held.append("cost rows in \(costs)") }
        if let appStore = span(appStoreMonths) { held.append("App Store data in \(appStore)") }
        if signedLater > 0 {
            held.append("\(HumanText.count(signedLater)) App Store records signed after the window's as-of time (later months)")
        }
        let holds = held.isEmpty ? "the data holds no dated row at all" : "the data holds " + held.joined(separator: " and ")
        return Diagnostic(
            "the window \(label) holds no cost row and no App Store data; \(holds). "
                + "Choose a window inside that, or pass --allow-empty to write a report of zeros.")
    }

    /// Throws when `window` holds no cost row and no App Store event.
    static func check(
        window: ReportWindow, totals: AttributionTotals, summaries: [CostFileSummary], ledger: Ledger, counts: AppStoreCounts
    ) throws {
        guard totals.rowsInWindow == 0 else { return }
        func inWindow(_ time: Timestamp?) -> Bool { time.map { $0 >= window.start && $0 < window.end } ?? false }
        var first: Timestamp?
        var last: Timestamp?
        func note(_ time: Timestamp?) {
            guard let time else { return }
            if first.map({ time < $0 }) ?? true { first = time }
            if last.map({ time > $0 }) ?? true { last = time }
        }
        for transaction in ledger.transactions {
            let record = transaction.box.record
            if inWindow(record.purchaseDate) || inWindow(record.expiresDate) || inWindow(record.revocationDate) { return }
            note(record.purchaseDate)
            note(record.revocationDate)
        }
        for signed in ledger.notifications.map(\.signedDate) + ledger.refundDecisions.map(\.signedDate) {
            if inWindow(signed) { return }
            note(signed)
        }
        let earliest = summaries.compactMap(\.earliest).min()
        let latest = summaries.compactMap(\.latest).max()
        var error = EmptyWindowError(label: window.label)
        if let earliest, let latest { error.costMonths = CivilMonth(earliest)...CivilMonth(latest) }
        if let first, let last { error.appStoreMonths = CivilMonth(first)...CivilMonth(last) }
        error.signedLater = counts.notificationsSignedAfterAsOf + counts.transactionCopiesSignedAfterAsOf
        throw error
    }
}
