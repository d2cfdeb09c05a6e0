import Attribution
import Support

/// Cost served after access ended: its shape by day, its trend across months, the largest
/// leaks and the subscriptions that leak every period.
enum LeakSection {
    static let leakClasses: [CostClass] = [.afterRefund, .afterFamilyExit]

    static func trend(_ figures: ReportFigures) throws -> String {
        typealias T = PageText
        let currency = figures.currency.description
        var text = "<h2>The leak: cost served after a refund or a family exit</h2>\n"
        let daily = ClassSection.dailyChart(figures, classes: leakClasses, name: "leak-by-day", unit: "leaked per day")
        text += "<div class=\"panel\">" + daily.svg + daily.legend + "</div>\n"

        let months = figures.trend
        let reportMonth = CivilMonth(Timestamp(milliseconds: figures.window.end.milliseconds - 1))
        var leakByMonth: [Money] = []
        for month in months { leakByMonth.append(try month.classes[.afterRefund].adding(month.classes[.afterFamilyExit])) }
        let marked = months.firstIndex { $0.month == reportMonth }
        let monthly = StackedBarChart(
            name: "leak-trend", description: "leaked cost per month",
            series: leakClasses.map { .init(name: T.words($0), color: ClassSection.color($0)) },
            bars: months.map { month in
                .init(
                    label: T.shortMonthName(month.month), fullLabel: T.monthName(month.month),
                    values: leakClasses.map { month.classes[$0].nanos })
            }, currency: currency, unit: "\(currency) leaked per month", axisTitle: "month",
            marked: marked.map { ($0, "report month") })
        text += "<h3>Across months</h3>\n<div class=\"panel\">" + monthly.svg
        if let marked, marked > 0 {
            let now = leakByMonth[marked], before = leakByMonth[marked - 1]
            let direction = now > before ? "up" : now < before ? "down" : "unchanged"
            text +=
                "<p><b>\(T.amount(now, currency))</b> leaked in \(T.monthName(months[marked].month)), \(direction) from \(T.amount(before, currency)) in \(T.monthName(months[marked - 1].month)).</p>"
        }
        text += try shareTable(months, leakByMonth: leakByMonth, marked: marked, currency: currency)
        return text
            + "<p class=\"muted\">Every month up to the window's end, classified with the App Store data known at \(T.timeName(figures.asOf)): a refund signed after a month closed moves its cost into after refund. All in trend.csv.</p></div>\n"
    }

    /// The leak beside the cost served, month by month: a leak that grows with the business
    /// is not the same as one that grows faster.
    private static func shareTable(
        _ months: [TrendFigure], leakByMonth: [Money], marked: Int?, currency: String
    ) throws
        -> String
    {
        typealias T = PageText
        var text =
            "<div class=\"scroll\"><table><tr><th>month</th><th class=\"n\">cost served (\(currency))</th>"
            + "<th class=\"n\">leaked (\(currency))</th><th class=\"n\">leak share of cost</th></tr>\n"
        for (index, month) in months.enumerated() {
            let served = try month.classes.total()
            let name = T.monthName(month.month) + (index == marked ? " (report month)" : "")
            text +=
                "<tr><td>\(name)</td><td class=\"n\">\(T.money(served))</td><td class=\"n\">\(T.money(leakByMonth[index]))</td>"
                + "<td class=\"n\">\(T.percent(leakByMonth[index].nanos, of: served.nanos))</td></tr>\n"
        }
        return text + "</table></div>\n"
    }

    static func largest(_ figures: ReportFigures) -> String {
        typealias T = PageText
        // Figures come in account and transaction order; the position breaks ties.
        let all = figures.leaks.enumerated().filter { $0.element.isLeak }
        let leaks = all.sorted { a, b in
            let left = a.element.cell.byPhase[LeakPhase.beyondGrace.rawValue]
            let right = b.element.cell.byPhase[LeakPhase.beyondGrace.rawValue]
            return left != right ? left > right : a.offset < b.offset
        }.prefix(15).map(\.element)
        var text = "<h2>Largest leaks: cost after access ended</h2>\n"
        guard !leaks.isEmpty else { return text + "<p>No cost was served after a refund or a family exit in this window.</p>\n" }
        let counts = figures.counts
        text +=
            "<p class=\"muted\">\(shown(leaks.count, of: counts.leakRows, file: "leaks.csv")), by cost beyond grace: "
            + "\(T.counted(counts.leakRows, "ended transaction")) of \(T.counted(counts.leakingAccounts, "account")).</p>\n"
        if counts.expiryRows > 0 {
            text +=
                "<p class=\"muted\">leaks.csv also lists \(T.counted(counts.expiryRows, "expired subscription")) of \(T.counted(counts.expiryAccounts, "account")) served after expiry (lapsed access, after_expiry), counted apart and not shown here.</p>\n"
        }
        text +=
            "<div class=\"scroll\"><table><tr><th>account</th><th>ended transaction</th><th>how it ended</th><th>ended on</th><th class=\"n\">before notice</th><th class=\"n\">within grace</th><th class=\"n\">beyond grace</th><th>last cost on</th></tr>\n"
        for leak in leaks {
            let transaction = leak.transaction
            text +=
                "<tr><td>\(T.escape(leak.account))</td><td>\(T.escape(transaction.id)) <span class=\"muted\">\(T.escape(transaction.productID)), \(T.words(transaction.ownershipName))</span></td><td>\(T.words(transaction.endKind.rawValue))</td><td class=\"d\">\(transaction.end.map { "\($0.at.civilDate)" } ?? "")</td>"
            for phase in LeakPhase.allCases { text += "<td class=\"n\">\(T.money(leak.cell.byPhase[phase.rawValue]))</td>" }
            text += "<td class=\"d\">\(leak.cell.last.civilDate)</td></tr>\n"
        }
        return text
            + "</table></div>\n<p class=\"muted\">Amounts in \(figures.currency). Before notice: the server could not know yet. Beyond grace: later than the notice plus the grace period; the server should have cut these off.</p>\n"
    }

    static func subscriptions(_ figures: ReportFigures) -> String {
        typealias T = PageText
        let leaking = figures.subscriptionLosses.enumerated().filter { $0.element.leakedCost != .zero }
        let losses = leaking.sorted { first, second in
            let a = first.element, b = second.element
            if a.runRate30Days != b.runRate30Days { return a.runRate30Days > b.runRate30Days }
            return a.leakedCost != b.leakedCost ? a.leakedCost > b.leakedCost : first.offset < second.offset
        }.prefix(15).map(\.element)
        var text = "<h2>Subscriptions leaking every period</h2>\n"
        guard !losses.isEmpty else { return text + "<p>No leaked subscription access in this window.</p>\n" }
        text +=
            "<p class=\"muted\">\(shown(losses.count, of: leaking.count, file: "subscription_loss.csv")), by what they cost per 30 days.</p>\n"
        text +=
            "<div class=\"scroll\"><table><tr><th>account</th><th>subscription</th><th>period</th><th>access ended on</th><th class=\"n\">periods leaked</th><th class=\"n\">leaked so far</th><th class=\"n\">per period</th><th>still leaking</th><th class=\"n\">per 30 days</th></tr>\n"
        for loss in losses {
            let transaction = loss.transaction
            text +=
                "<tr><td>\(T.escape(loss.account))</td><td>\(T.escape(transaction.originalID)) <span class=\"muted\">\(T.escape(transaction.productID)), \(T.words(transaction.ownershipName))</span></td><td>\(T.words(loss.period.iso))</td><td class=\"d\">\(transaction.end.map { "\($0.at.civilDate)" } ?? "")</td><td class=\"n\">\(loss.leakedPeriods)</td><td class=\"n\">\(T.money(loss.leakedCost))</td><td class=\"n\">\(T.money(loss.costPerPeriod))</td><td>\(loss.stillLeaking ? "<b>yes</b>" : "no")</td><td class=\"n\">\(T.money(loss.runRate30Days))</td></tr>\n"
        }
        return text + "</table></div>\n<p class=\"muted\">Amounts in \(figures.currency).</p>\n"
    }

    /// `All 4; all in leaks.csv` or `The largest 15 of 40; all in leaks.csv`.
    static func shown(_ shown: Int, of total: Int, file: String) -> String {
        shown == total ? "All \(total), as in \(file)" : "The largest \(shown) of \(PageText.count(total)); all in \(file)"
    }
}
