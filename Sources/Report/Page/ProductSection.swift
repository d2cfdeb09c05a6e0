import Attribution
import Support

/// Leak, refunds and sunk cost by product: which product the money goes out through.
enum ProductSection {
    static func html(_ figures: ReportFigures) throws -> String {
        typealias T = PageText
        var text = "<h2>By product</h2>\n<div class=\"scroll\"><table><tr><th>product</th>"
        for heading in [
            "cost served", "leaked", "beyond grace", "refunds", "purchases and renewals", "refund rate", "refunded",
            "sunk cost", "billing grace unpaid",
        ] {
            text += "<th class=\"n\">\(heading)</th>"
        }
        text += "</tr>\n"
        for row in figures.summary + [figures.total] {
            // A Google Play product says so: the two stores may sell a product under one id.
            let store = row.store == .googlePlay ? " (Google Play)" : ""
            let name = row.product.map { $0.isEmpty ? "no product (unentitled, unlinked)" : $0 + store } ?? "all products"
            let cell = row.product == nil ? "th" : "td"
            text += "<tr><\(cell)>\(T.escape(name))</\(cell)>"
            let rate = row.refundRateTenThousandths.map { T.percent(Int64($0), of: 10_000) } ?? "–"
            for value in [
                T.money(try row.classes.total()), T.money(try row.leakedCost()), T.money(row.leakedBeyondGrace),
                T.count(row.refunds), T.count(row.paidTransactions), rate, T.money(row.refundedAmount),
                T.money(row.refundSunkCost), T.money(row.classes[.billingGrace]),
            ] {
                text += "<\(cell) class=\"n\">\(value)</\(cell)>"
            }
            text += "</tr>\n"
        }
        return text
            + "</table></div>\n<p class=\"muted\">Amounts in \(figures.currency). Refund rate: refunds of the window over purchases and renewals of the window (a refund may be of an earlier purchase). summary.csv has every column; totals.csv the last row.</p>\n"
    }
}
