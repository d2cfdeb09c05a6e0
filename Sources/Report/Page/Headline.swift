import Attribution
import Support

/// The six figures at the top of the page, each with how it moved against the month before.
///
/// A card says what the figure is and how it changed; the details (beyond grace, per account,
/// per product) are in the sections below, never repeated here.
enum Headline {
    static func cards(_ figures: ReportFigures) throws -> String {
        typealias T = PageText
        let currency = figures.currency.description
        let all = figures.total
        let counts = figures.counts
        let leaked = try all.leakedCost()
        let changes = try figures.headlineChanges()
        let noEarlier =
            figures.window.isCalendarMonth
            ? "no earlier month in the data to compare with"
            : "a window that is not a calendar month: no month before to compare with"
        func moved(_ change: HeadlineChange?) -> (text: String, style: String) {
            guard let change else { return (noEarlier, "") }
            let text = change.words(
                amount: { T.amount($0, currency) }, monthName: T.monthName(change.month))
            return (text, change.isWorse ? "worse" : change.isBetter ? "better" : "")
        }
        let rate =
            all.paidTransactions == 0
            ? "" : ", \(T.percent(Int64(all.refunds), of: Int64(all.paidTransactions))) of purchases and renewals"
        var text = "<div class=\"cards\">\n"
        text += card(
            "Cost served", T.amount(try all.classes.total(), currency), "delivery cost of the month's usage",
            moved(changes?.costServed))
        text += card(
            "Refunded to customers", T.amount(all.refundedAmount, currency), "\(T.counted(counts.refunds, "refund"))\(rate)",
            moved(changes?.refunded), style: all.refunds > 0 ? "bad" : "")
        text += card(
            "What refunds really cost", T.amount(all.refundSunkCost, currency),
            "what serving the refunded purchases cost, families and after the refund included", moved(changes?.refundSunkCost))
        text += card(
            "Leaked after access ended", T.amount(leaked, currency),
            "served after a refund or a family exit, to \(T.counted(counts.leakingAccounts, "account"))", moved(changes?.leaked),
            style: leaked > .zero ? "bad" : "")
        text += card(
            "Recurring loss, per 30 days", T.amount(all.recurringLossRunRate, currency),
            "what subscriptions still leaking cost every 30 days", moved(changes?.recurringLoss),
            style: all.recurringLossRunRate > .zero ? "bad" : "")
        text += card(
            "Billing grace never paid", T.amount(all.classes[.billingGrace], currency),
            "served while Apple retried renewals that never recovered", moved(changes?.billingGrace),
            style: all.classes[.billingGrace] > .zero ? "loss" : "")
        return text + "</div>\n"
    }

    private static func card(
        _ label: String, _ value: String, _ note: String, _ change: (text: String, style: String), style: String = ""
    ) -> String {
        typealias T = PageText
        return
            "<div class=\"card\(style.isEmpty ? "" : " " + style)\"><div class=\"label\">\(T.escape(label))</div><div class=\"value\">\(T.escape(value))</div>"
            + "<div class=\"change\(change.style.isEmpty ? "" : " " + change.style)\">\(T.escape(change.text))</div>"
            + "<div class=\"note\">\(T.escape(note))</div></div>\n"
    }
}
