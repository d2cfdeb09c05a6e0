import Attribution
import Support

/// What the window's refunds cost: the split of their sunk cost, and the largest of them.
enum RefundSection {
    static func html(_ figures: ReportFigures) throws -> String {
        typealias T = PageText
        let currency = figures.currency.description
        var purchaser = Money.zero, family = Money.zero, after = Money.zero
        for refund in figures.refunds {
            purchaser = try purchaser.adding(refund.costPurchaser)
            family = try family.adding(refund.costFamily)
            after = try after.adding(refund.costAfterRevocation)
        }
        let parts: [(String, Money, String)] = [
            ("served to the purchaser", purchaser, ClassSection.color(.paid)),
            ("served to the family", family, ClassSection.color(.familyShared)),
            ("served after the refund", after, ClassSection.color(.afterRefund)),
        ]
        let sum = max(1, parts.reduce(Int64(0)) { $0 + max(0, $1.1.nanos) })
        var text =
            "<h2>What the \(T.counted(figures.refunds.count, "refund")) of the window cost</h2>\n<div class=\"panel\"><svg data-chart=\"refund-split\" viewBox=\"0 0 960 40\" preserveAspectRatio=\"none\" width=\"100%\" height=\"40\" role=\"img\" aria-label=\"refund cost split\">"
        var x = 0.0
        for (label, value, color) in parts where value.nanos > 0 {
            let w = 960.0 * Double(value.nanos) / Double(sum)
            text +=
                "<rect x=\"\(T.coordinate(x))\" y=\"4\" width=\"\(T.coordinate(w))\" height=\"32\" fill=\"\(color)\"><title>\(label): \(T.money(value)) \(currency)</title></rect>"
            x += w
        }
        text += "</svg><p class=\"muted\">"
        text += parts.map {
            "<span class=\"swatch\" style=\"background:\($0.2)\"></span>\($0.0): <b>\(T.money($0.1)) \(currency)</b>"
        }.joined(separator: " &nbsp; ")
        text += "</p></div>\n"
        let top = figures.refunds.sorted { ($0.sunkCost, $1.transactionIndex) > ($1.sunkCost, $0.transactionIndex) }.prefix(10)
        guard !top.isEmpty else { return text }
        text +=
            "<p class=\"muted\">\(LeakSection.shown(top.count, of: figures.refunds.count, file: "refunds.csv")), by sunk cost.</p>\n"
        text +=
            "<div class=\"scroll\"><table><tr><th>transaction</th><th>account</th><th>product</th><th>kind</th><th>refunded on</th><th class=\"n\">family members</th><th class=\"n\">refunded (\(currency))</th><th class=\"n\">sunk cost (\(currency))</th></tr>\n"
        for refund in top {
            let transaction = refund.transaction
            var refunded = refund.refundedInReportCurrency.map { T.money($0) } ?? "–"
            if let amount = refund.refundedAmount, let code = refund.priceCurrency, code != currency {
                refunded = "<span class=\"muted\">\(T.money(amount)) \(T.escape(code)) =</span> " + refunded
            }
            text +=
                "<tr><td>\(T.escape(transaction.id))</td><td>\(T.escape(transaction.account ?? "–"))</td><td>\(T.escape(transaction.productID))</td><td>\(T.words(refund.kind.rawValue))</td><td class=\"d\">\(transaction.revocationDate.map { "\($0.civilDate)" } ?? "")</td><td class=\"n\">\(refund.familyMembers)</td><td class=\"n\">\(refunded)</td><td class=\"n\">\(T.money(refund.sunkCost))</td></tr>\n"
        }
        return text + "</table></div>\n"
    }
}
