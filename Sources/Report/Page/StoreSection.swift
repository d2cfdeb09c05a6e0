import Attribution
import Support

/// Both stores side by side, and what Google Play's chargebacks lost: shown when the data holds
/// Google Play's orders (a page of the App Store alone has no such section).
enum StoreSection {
    /// The largest chargebacks listed; chargebacks.csv has them all.
    static let largest = 10

    /// Google Play's refund reviews a person must look at (answered late or not at all on
    /// respond's watch, refused, failed), with `--play-journal`: a banner above everything.
    static func reviewAlert(_ figures: ReportFigures) -> String {
        let waiting = figures.refundReviews.filter { $0.needsAttention == true }
        guard !waiting.isEmpty else { return "" }
        return "<div class=\"alert\" role=\"alert\">\(PageText.counted(waiting.count, "Google Play refund review")) "
            + "\(waiting.count == 1 ? "needs" : "need") attention: refused, failed, or not answered within Google's 24 hours "
            + "(refund_reviews.csv: answer_state, answered_in_time).</div>\n"
    }

    static func shows(_ figures: ReportFigures) -> Bool {
        figures.storeTotals.contains { $0.store == .googlePlay && !$0.isEmpty }
    }

    static func html(_ figures: ReportFigures) throws -> String {
        typealias T = PageText
        guard shows(figures) else { return "" }
        var text = "<h2>By store</h2>\n<div class=\"scroll\"><table><tr><th>store</th>"
        for heading in [
            "cost served", "refunds", "refunded", "what refunds cost", "leaked", "chargebacks", "chargebacks lost",
        ] {
            text += "<th class=\"n\">\(heading)</th>"
        }
        text += "</tr>\n"
        let rows =
            figures.storeTotals.map { ($0.store?.title ?? "no purchase (unentitled, unlinked)", $0, "td") }
            + [("all", figures.total, "th")]
        for (name, row, cell) in rows {
            text += "<tr><\(cell)>\(T.escape(name))</\(cell)>"
            for value in [
                T.money(try row.classes.total()), T.count(row.refunds), T.money(row.refundedAmount), T.money(row.refundSunkCost),
                T.money(try row.leakedCost()), T.count(row.chargebacks), T.money(row.chargebacksLost),
            ] {
                text += "<\(cell) class=\"n\">\(value)</\(cell)>"
            }
            text += "</tr>\n"
        }
        text +=
            "</table></div>\n<p class=\"muted\">Amounts in \(figures.currency). Cost tied to no purchase of either store "
            + "(use before any purchase, accounts no purchase names) has a row of its own. What refunds cost is the delivery "
            + "cost beyond the money paid back; what chargebacks lost counts the money taken back too, and its delivery cost is "
            + "already in cost served. store_totals.csv has every column.</p>\n"
        return text + (try chargebacks(figures)) + reviews(figures)
    }

    /// Google's refund reviews of the window, and with a journal how they were answered.
    private static func reviews(_ figures: ReportFigures) -> String {
        typealias T = PageText
        let reviews = figures.refundReviews
        guard !reviews.isEmpty else { return "" }
        let voided = reviews.filter { $0.voided != nil }.count
        var text =
            "<p>Google asked the app about \(T.counted(reviews.count, "refund review")) in the window (a chargeback or refund "
            + "request it decides after the app's answer, due within 24 hours); it has voided \(T.count(voided)) of those orders since"
        if let answering = figures.playAnswering {
            text +=
                ". Answered within 24 hours: <b>\(T.count(answering.answeredInTime)) of \(T.count(answering.reviews))</b>; "
                + "of the \(T.count(answering.answered)) answered, \(T.count(answering.voidedAfterAnswer)) voided after the answer "
                + "and \(T.count(answering.notVoided)) not voided so far (Google says nothing when it keeps a purchase)"
        } else {
            text += "; whether they were answered is not known without --play-journal"
        }
        return text + ". refund_reviews.csv lists each.</p>\n"
    }

    /// What each chargeback lost, the largest first.
    private static func chargebacks(_ figures: ReportFigures) throws -> String {
        typealias T = PageText
        guard !figures.chargebacks.isEmpty else { return "" }
        let unknown = figures.chargebacks.filter { $0.received == nil }.count
        let shown = figures.chargebacks.sorted {
            $0.lost != $1.lost ? $1.lost < $0.lost : $0.transaction.id.bytesPrecede($1.transaction.id)
        }.prefix(largest)
        var text =
            "<h3>Google Play chargebacks</h3>\n<p>A chargeback is the buyer's bank taking the money back: the app loses what "
            + "Google had passed on for the order, what delivering it had already cost, and the bank's fee"
            + (figures.chargebacks.contains { $0.fee != .zero } ? "" : " (none given: --chargeback-fee adds it)") + ".</p>\n"
            + "<div class=\"scroll\"><table><tr><th>order</th><th>account</th><th>product</th><th>charged back</th>"
            + "<th class=\"n\">received</th><th class=\"n\">fee</th><th class=\"n\">delivery cost</th><th class=\"n\">lost</th></tr>\n"
        for chargeback in shown {
            let order = chargeback.transaction
            text +=
                "<tr><td>\(T.escape(order.id))</td><td>\(T.escape(order.account ?? ""))</td><td>\(T.escape(order.productID))</td>"
                + "<td>\(T.dateName(chargeback.chargedBackAt.civilDate))</td>"
                + "<td class=\"n\">\(chargeback.receivedInReportCurrency.map { T.money($0) } ?? "–")</td>"
                + "<td class=\"n\">\(T.money(chargeback.fee))</td><td class=\"n\">\(T.money(chargeback.deliveryCost))</td>"
                + "<td class=\"n\">\(T.money(chargeback.lost))</td></tr>\n"
        }
        let more = figures.chargebacks.count > largest ? "The \(largest) largest of \(T.count(figures.chargebacks.count)); " : ""
        let lower =
            unknown == 0
            ? ""
            : "\(T.counted(unknown, "order")) without what Google passed on (fetch orders again): "
                + "\(unknown == 1 ? "its" : "their") lost counts the delivery cost and the fee only. "
        return text
            + "</table></div>\n<p class=\"muted\">Amounts in \(figures.currency). \(lower)\(more)chargebacks.csv lists every one.</p>\n"
    }
}
