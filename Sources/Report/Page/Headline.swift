import Attribution
import Support

/// The six figures at the top of the page.
enum Headline {
    static func cards(_ figures: ReportFigures) throws -> String {
        typealias T = PageText
        let currency = figures.currency.description
        let all = figures.total
        let counts = figures.counts
        let leaked = try all.leakedCost()
        let rate =
            all.paidTransactions == 0
            ? "no purchases or renewals in the window"
            : "\(T.percent(Int64(all.refunds), of: Int64(all.paidTransactions))) of the \(T.count(all.paidTransactions)) purchases and renewals in the window"
        var text = "<div class=\"cards\">\n"
        text += card(
            "Cost served", T.amount(try all.classes.total(), currency),
            "\(T.counted(figures.costRows.rowsInWindow, "cost row")) in the window")
        text += card(
            "Refunded to customers", T.amount(all.refundedAmount, currency), "\(T.counted(counts.refunds, "refund")); \(rate)",
            style: all.refunds > 0 ? "bad" : "")
        text += card(
            "What refunds really cost", T.amount(all.refundSunkCost, currency),
            "delivery cost of the refunded purchases: served to the purchaser, to the family, and after the refund")
        text += card(
            "Leaked after access ended", T.amount(leaked, currency),
            "\(T.amount(all.leakedBeyondGrace, currency)) of it beyond the grace period; \(T.counted(counts.leakingAccounts, "account")) served after a refund or a family exit, \(T.count(counts.leakingAccountsBeyondGrace)) beyond grace",
            style: leaked > .zero ? "bad" : "")
        text += card(
            "Recurring loss, per 30 days", T.amount(all.recurringLossRunRate, currency),
            "subscriptions still leaking if nobody fixes them", style: all.recurringLossRunRate > .zero ? "bad" : "")
        text += card(
            "Billing grace never paid", T.amount(all.classes[.billingGrace], currency),
            "served while Apple retried a failed renewal that never recovered: a loss, not a leak",
            style: all.classes[.billingGrace] > .zero ? "loss" : "")
        return text + "</div>\n"
    }

    private static func card(_ label: String, _ value: String, _ note: String, style: String = "") -> String {
        typealias T = PageText
        return
            "<div class=\"card\(style.isEmpty ? "" : " " + style)\"><div class=\"label\">\(T.escape(label))</div><div class=\"value\">\(T.escape(value))</div><div class=\"note\">\(T.escape(note))</div></div>\n"
    }
}
