import Attribution
import Support

/// `report.html`: one self-contained page for people (no scripts, fonts or images from
/// elsewhere): the headline figures, cost by class per day, what refunds cost, the largest
/// leaks, the reconciliation and the inputs.
enum ReportPage {
    static func write(_ figures: ReportFigures, conservation: Conservation, context: RunContext, to folder: String) throws {
        let file = try AtomicFileWriter(path: folder + "/report.html")
        try file.append(try html(figures, conservation: conservation, context: context))
        try file.commit()
    }

    static let colors: [CostClass: String] = [
        .paid: "#2e7d32", .familyShared: "#81c784", .premature: "#f9a825", .afterRefund: "#c62828",
        .afterFamilyExit: "#ef6c00", .afterExpiry: "#8d6e63", .unentitled: "#90a4ae", .unlinked: "#455a64",
        .billingGrace: "#7e57c2",
    ]

    static let explanations: [CostClass: String] = [
        .paid: "served to the account that paid",
        .familyShared: "served to family members on the purchaser's payment",
        .premature: "served before Apple issued the member's transaction",
        .afterRefund: "served after a refund ended the access",
        .afterFamilyExit: "served after a member left the family",
        .afterExpiry: "served after a subscription lapsed",
        .unentitled: "known account, no access at the time (free use)",
        .unlinked: "account known to no App Store transaction",
        .billingGrace: "served in a billing grace period that was never paid",
    ]

    static func html(_ figures: ReportFigures, conservation: Conservation, context: RunContext) throws -> String {
        let inputs = context.inputs
        let currency = figures.currency.description
        let all = figures.total
        let total = try all.classes.total()
        let leaked = try all.leakedCost()
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>refund-cost \(escape(figures.window.label))</title>
            <style>
            body{font:15px/1.45 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1f2933;margin:0;background:#f5f7fa}
            main{max-width:1040px;margin:0 auto;padding:28px 24px 48px}
            h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:36px 0 10px}
            .sub{color:#52606d;margin:0 0 22px}
            .cards{display:grid;grid-template-columns:repeat(4,1fr);gap:12px}
            .card{background:#fff;border-radius:8px;padding:14px 16px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
            .card .label{color:#52606d;font-size:13px}.card .value{font-size:22px;font-weight:600;margin:4px 0}
            .card .note{color:#52606d;font-size:12.5px}
            .bad .value{color:#c62828}
            table{border-collapse:collapse;width:100%;background:#fff;border-radius:8px;overflow:hidden;box-shadow:0 1px 2px rgba(0,0,0,.08)}
            th,td{padding:7px 10px;text-align:left;border-bottom:1px solid #e4e7eb;font-size:13.5px;vertical-align:top}
            td:first-child,td.n{white-space:nowrap}
            th{background:#eef1f4;font-weight:600}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
            .swatch{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:6px;vertical-align:-1px}
            .panel{background:#fff;border-radius:8px;padding:14px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
            .ok{color:#2e7d32}.fail{color:#c62828;font-weight:600}
            .muted{color:#7b8794;font-size:12.5px}code{font-size:12.5px}
            .trust{margin:-14px 0 22px;font-size:13.5px}.trust.warn{color:#c62828;font-weight:600}
            </style></head><body><main>
            <h1>What refunds and leaks cost: \(escape(periodName(figures.window)))</h1>
            <p class="sub">Window \(figures.window.start.civilDate) to \(figures.window.end.civilDate) (end excluded), data as of \(figures.window.asOf), amounts in \(currency).</p>
            <p class="trust\(context.signatures.allVerified ? "" : " warn")">\(escape(context.signatures.sentence))</p>
            <div class="cards">

            """
        page += card("Cost served", amount(total, currency), "\(count(figures.totals.rowsInWindow)) cost rows in the window")
        page += card(
            "Leaked after access ended", amount(leaked, currency),
            "\(amount(all.leakedBeyondGrace, currency)) of it beyond the grace period, \(all.leakedAccounts) account\(all.leakedAccounts == 1 ? "" : "s")",
            bad: leaked > .zero)
        page += card(
            "What refunds really cost", amount(all.refundSunkCost, currency),
            "\(all.refunds) refund\(all.refunds == 1 ? "" : "s") (\(amount(all.refundedAmount, currency)) paid back); cost served on them, to families, and after"
        )
        page += card(
            "Recurring loss, per 30 days", amount(all.recurringLossRunRate, currency),
            "subscriptions still leaking if nobody fixes them", bad: all.recurringLossRunRate > .zero)
        page += "</div>\n"

        page += "<h2>Cost by class per day</h2>\n<div class=\"panel\">" + dailyChart(figures) + legend() + "</div>\n"
        page += try classTable(all, total: total, currency: currency)
        page += try refundSection(figures, currency: currency)
        page += leakTable(figures, currency: currency)
        page += subscriptionTable(figures, currency: currency)
        page += try consumptionSection(figures, currency: currency)

        page +=
            "<h2>Reconciliation</h2>\n<p class=\"\(conservation.holds ? "ok" : "fail")\">\(escape(conservation.sentence(currency: figures.currency))).</p>\n"
        page +=
            "<p class=\"muted\">\(figures.totals.rowsBeforeWindow) rows before and \(figures.totals.rowsAfterWindow) after the window were read for refund and subscription history only. "
            + "Family refunds: \(all.familyRefunds), family exits: \(all.familyExits), refunds reversed: \(all.refundReversals). "
            + "\(figures.transactionCount) transactions, \(figures.accountCount) accounts holding them.</p>\n"
        page += "<h2>Inputs</h2>\n<table><tr><th>file</th><th class=\"n\">bytes</th><th>SHA-256</th></tr>\n"
        for input in inputs {
            page +=
                "<tr><td>\(escape(input.path))</td><td class=\"n\">\(count(input.bytes))</td><td><code>\(input.sha256.prefix(16))…</code></td></tr>\n"
        }
        page +=
            "</table>\n<p class=\"muted\">Written by refund-cost \(ToolVersion.current). The CSV files beside this page hold every figure; docs/outputs.md explains each column.</p>\n</main></body></html>\n"
        return page
    }

    private static func card(_ label: String, _ value: String, _ note: String, bad: Bool = false) -> String {
        "<div class=\"card\(bad ? " bad" : "")\"><div class=\"label\">\(escape(label))</div><div class=\"value\">\(escape(value))</div><div class=\"note\">\(escape(note))</div></div>\n"
    }

    private static func legend() -> String {
        var text = "<p class=\"muted\">"
        for costClass in CostClass.ruleOrder {
            text +=
                "<span class=\"swatch\" style=\"background:\(colors[costClass] ?? "#999")\"></span>\(costClass.reportName) &nbsp; "
        }
        return text + "</p>"
    }

    /// A stacked bar per day (positive amounts only; credits below zero are in the tables).
    private static func dailyChart(_ figures: ReportFigures) -> String {
        let firstDay = figures.window.start.dayNumber
        let days = max(1, Int(figures.window.end.dayNumber - firstDay))
        var perDay = Array(repeating: [Int64](repeating: 0, count: CostClass.allCases.count), count: days)
        for (key, cell) in figures.totals.byDay where cell.cost.nanos > 0 {
            let index = Int(key.day - firstDay)
            guard index >= 0 && index < days else { continue }
            perDay[index][key.costClass.rawValue] += cell.cost.nanos
        }
        let maxTotal = max(1, perDay.map { $0.reduce(0, +) }.max() ?? 1)
        let width = 960.0, height = 260.0, left = 64.0, bottom = 24.0
        let barSpace = (width - left - 8) / Double(days)
        var svg =
            "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"100%\" role=\"img\" aria-label=\"cost by class per day\">"
        for step in 0...4 {
            let value = Double(maxTotal) * Double(step) / 4
            let y = height - bottom - (height - bottom - 10) * Double(step) / 4
            svg += "<line x1=\"\(fmt(left))\" x2=\"\(fmt(width - 8))\" y1=\"\(fmt(y))\" y2=\"\(fmt(y))\" stroke=\"#e4e7eb\"/>"
            svg +=
                "<text x=\"\(fmt(left - 6))\" y=\"\(fmt(y + 4))\" font-size=\"11\" text-anchor=\"end\" fill=\"#52606d\">\(escape(short(Money(nanos: Int64(value)))))</text>"
        }
        for (index, classes) in perDay.enumerated() {
            var y = height - bottom
            let x = left + Double(index) * barSpace + barSpace * 0.12
            for costClass in CostClass.ruleOrder {
                let value = classes[costClass.rawValue]
                guard value > 0 else { continue }
                let h = (height - bottom - 10) * Double(value) / Double(maxTotal)
                y -= h
                svg +=
                    "<rect x=\"\(fmt(x))\" y=\"\(fmt(y))\" width=\"\(fmt(barSpace * 0.76))\" height=\"\(fmt(h))\" fill=\"\(colors[costClass] ?? "#999")\"><title>\(CivilDate(dayNumber: firstDay + Int64(index))) \(costClass.reportName): \(Money(nanos: value).formatted(decimals: 2))</title></rect>"
            }
            if days <= 31 || index % max(1, days / 15) == 0 {
                let date = CivilDate(dayNumber: firstDay + Int64(index))
                svg +=
                    "<text x=\"\(fmt(x + barSpace * 0.38))\" y=\"\(fmt(height - 8))\" font-size=\"10\" text-anchor=\"middle\" fill=\"#52606d\">\(date.day)</text>"
            }
        }
        return svg + "</svg>"
    }

    private static func classTable(_ all: SummaryFigure, total: Money, currency: String) throws -> String {
        var text =
            "<h2>Where the money went</h2>\n<table><tr><th>class</th><th>meaning</th><th class=\"n\">\(currency)</th><th class=\"n\">share</th></tr>\n"
        for costClass in CostClass.ruleOrder {
            let value = all.classes[costClass]
            let share = total.nanos == 0 ? "–" : Format.percent(value.nanos, of: total.nanos)
            text +=
                "<tr><td><span class=\"swatch\" style=\"background:\(colors[costClass] ?? "#999")\"></span>\(costClass.reportName)</td><td>\(explanations[costClass] ?? "")</td><td class=\"n\">\(money(value))</td><td class=\"n\">\(share)</td></tr>\n"
        }
        return text + "<tr><th>total</th><th></th><th class=\"n\">\(money(total))</th><th class=\"n\">100%</th></tr></table>\n"
    }

    private static func refundSection(_ figures: ReportFigures, currency: String) throws -> String {
        var purchaser = Money.zero, family = Money.zero, after = Money.zero
        for refund in figures.refunds {
            purchaser = try purchaser.adding(refund.costPurchaser)
            family = try family.adding(refund.costFamily)
            after = try after.adding(refund.costAfterRevocation)
        }
        let parts: [(String, Money, String)] = [
            ("served to the purchaser", purchaser, colors[.paid] ?? ""),
            ("served to the family", family, colors[.familyShared] ?? ""),
            ("served after the refund", after, colors[.afterRefund] ?? ""),
        ]
        let sum = max(1, parts.reduce(Int64(0)) { $0 + max(0, $1.1.nanos) })
        var text =
            "<h2>What the \(figures.refunds.count) refunds of the window cost</h2>\n<div class=\"panel\"><svg viewBox=\"0 0 960 40\" width=\"100%\" role=\"img\" aria-label=\"refund cost split\">"
        var x = 0.0
        for (label, value, color) in parts where value.nanos > 0 {
            let w = 960.0 * Double(value.nanos) / Double(sum)
            text +=
                "<rect x=\"\(fmt(x))\" y=\"4\" width=\"\(fmt(w))\" height=\"32\" fill=\"\(color)\"><title>\(label): \(money(value)) \(currency)</title></rect>"
            x += w
        }
        text += "</svg><p class=\"muted\">"
        text += parts.map {
            "<span class=\"swatch\" style=\"background:\($0.2)\"></span>\($0.0): <b>\(money($0.1)) \(currency)</b>"
        }.joined(separator: " &nbsp; ")
        text += "</p></div>\n"
        let top = figures.refunds.sorted { ($0.sunkCost, $1.transactionIndex) > ($1.sunkCost, $0.transactionIndex) }.prefix(10)
        guard !top.isEmpty else { return text }
        text +=
            "<table><tr><th>transaction</th><th>account</th><th>product</th><th>kind</th><th class=\"n\">family members</th><th class=\"n\">refunded</th><th class=\"n\">sunk cost (\(currency))</th></tr>\n"
        for refund in top {
            let transaction = refund.transaction
            let refunded = refund.refundedAmount.map { "\(money($0)) \(refund.priceCurrency ?? "")" } ?? "–"
            text +=
                "<tr><td>\(escape(transaction.id))</td><td>\(escape(transaction.account ?? "–"))</td><td>\(escape(transaction.productID))</td><td>\(refund.kind.rawValue)</td><td class=\"n\">\(refund.familyMembers)</td><td class=\"n\">\(escape(refunded))</td><td class=\"n\">\(money(refund.sunkCost))</td></tr>\n"
        }
        return text + "</table>\n"
    }

    private static func leakTable(_ figures: ReportFigures, currency: String) -> String {
        // Figures come in account and transaction order; the position breaks ties.
        let leaks = figures.leaks.enumerated().filter { $0.element.isLeak }
            .sorted { a, b in
                let left = a.element.cell.byPhase[LeakPhase.beyondGrace.rawValue]
                let right = b.element.cell.byPhase[LeakPhase.beyondGrace.rawValue]
                return left != right ? left > right : a.offset < b.offset
            }.prefix(15).map(\.element)
        var text = "<h2>Largest leaks: cost after access ended</h2>\n"
        guard !leaks.isEmpty else { return text + "<p>No cost was served after a refund or a family exit in this window.</p>\n" }
        text +=
            "<table><tr><th>account</th><th>ended transaction</th><th>how it ended</th><th>ended at</th><th class=\"n\">before notice</th><th class=\"n\">within grace</th><th class=\"n\">beyond grace</th><th>last cost</th></tr>\n"
        for leak in leaks {
            let transaction = leak.transaction
            text +=
                "<tr><td>\(escape(leak.account))</td><td>\(escape(transaction.id)) <span class=\"muted\">\(escape(transaction.productID)), \(transaction.ownership.reportName)</span></td><td>\(transaction.endKind.rawValue)</td><td>\(transaction.end.map { "\($0.at.civilDate)" } ?? "")</td>"
            for phase in LeakPhase.allCases { text += "<td class=\"n\">\(money(leak.cell.byPhase[phase.rawValue]))</td>" }
            text += "<td>\(leak.cell.last.civilDate)</td></tr>\n"
        }
        return text
            + "</table>\n<p class=\"muted\">Amounts in \(currency). Before notice: the server could not know yet. Beyond grace: later than the notice plus the grace period; the server should have cut these off.</p>\n"
    }

    private static func subscriptionTable(_ figures: ReportFigures, currency: String) -> String {
        let losses = figures.subscriptionLosses.enumerated().sorted { first, second in
            let a = first.element, b = second.element
            if a.runRate30Days != b.runRate30Days { return a.runRate30Days > b.runRate30Days }
            return a.leakedCost != b.leakedCost ? a.leakedCost > b.leakedCost : first.offset < second.offset
        }.prefix(15).map(\.element)
        var text = "<h2>Subscriptions leaking every period</h2>\n"
        guard !losses.isEmpty else { return text + "<p>No leaked subscription access in this window.</p>\n" }
        text +=
            "<table><tr><th>account</th><th>subscription</th><th>period</th><th>access ended</th><th class=\"n\">periods leaked</th><th class=\"n\">leaked so far</th><th class=\"n\">per period</th><th>still leaking</th><th class=\"n\">per 30 days</th></tr>\n"
        for loss in losses {
            let transaction = loss.transaction
            text +=
                "<tr><td>\(escape(loss.account))</td><td>\(escape(transaction.originalID)) <span class=\"muted\">\(escape(transaction.productID)), \(transaction.ownership.reportName)</span></td><td>\(loss.period.iso)</td><td>\(transaction.end.map { "\($0.at.civilDate)" } ?? "")</td><td class=\"n\">\(loss.leakedPeriods)</td><td class=\"n\">\(money(loss.leakedCost))</td><td class=\"n\">\(money(loss.costPerPeriod))</td><td>\(loss.stillLeaking ? "<b>yes</b>" : "no")</td><td class=\"n\">\(money(loss.runRate30Days))</td></tr>\n"
        }
        return text + "</table>\n<p class=\"muted\">Amounts in \(currency).</p>\n"
    }

    /// Requests by reason, the preference the evidence supports, and how they ended.
    private static func consumptionSection(_ figures: ReportFigures, currency: String) throws -> String {
        var text = "<h2>Refund requests (consumption requests)</h2>\n"
        guard !figures.consumption.isEmpty else { return text + "<p>No CONSUMPTION_REQUEST in this window.</p>\n" }
        var cells: [String: [String: (count: Int, cost: Money)]] = [:]
        var preferences: [String: Int] = [:]
        var late = 0
        var consented = 0
        for request in figures.consumption {
            let reason = request.reason ?? "(none)"
            var cell = cells[reason]?[request.outcome.rawValue] ?? (0, .zero)
            cell.count += 1
            cell.cost = try cell.cost.adding(request.deliveredCost)
            cells[reason, default: [:]][request.outcome.rawValue] = cell
            preferences[request.preference.rawValue, default: 0] += 1
            if request.pastRespondBy { late += 1 }
            if request.consented { consented += 1 }
        }
        text +=
            "<table><tr><th>reason</th><th class=\"n\">granted</th><th class=\"n\">declined</th><th class=\"n\">pending</th><th class=\"n\">delivered cost (\(currency))</th></tr>\n"
        for reason in cells.keys.sorted() {
            let row = cells[reason] ?? [:]
            var cost = Money.zero
            for cell in row.values { cost = try cost.adding(cell.cost) }
            text += "<tr><td>\(escape(reason))</td>"
            for outcome in [ConsumptionOutcome.granted, .declined, .pending] {
                text += "<td class=\"n\">\(row[outcome.rawValue]?.count ?? 0)</td>"
            }
            text += "<td class=\"n\">\(money(cost))</td></tr>\n"
        }
        text += "</table>\n<p class=\"muted\">Preference the evidence supports: "
        text += RefundPreference.allCases.map { "\($0.rawValue) \(preferences[$0.rawValue] ?? 0)" }.joined(separator: ", ")
        text +=
            ". \(consented) of \(figures.consumption.count) customers consented to share consumption data (only those answers can be sent); "
        text +=
            "\(late) request\(late == 1 ? " is" : "s are") past the 12-hour answer window as of \(figures.window.asOf.civilDate). See consumption_requests.csv.</p>\n"
        return text
    }

    // MARK: Formatting for people

    static func periodName(_ window: ReportWindow) -> String {
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
            "December",
        ]
        let start = window.start.civilDate
        if window.isCalendarMonth { return "\(months[Int(start.month) - 1]) \(start.year)" }
        return "\(start) to \(window.end.civilDate)"
    }

    /// `12,345.67`: two decimals, thousands grouped (the CSV files keep six).
    static func money(_ value: Money) -> String {
        let text = value.formatted(decimals: 2)
        let negative = text.hasPrefix("-")
        let digits = negative ? String(text.dropFirst()) : text
        let parts = digits.split(separator: ".")
        return (negative ? "−" : "") + HumanText.grouped(parts[0]) + (parts.count > 1 ? "." + parts[1] : "")
    }

    static func amount(_ value: Money, _ currency: String) -> String { money(value) + " " + currency }

    static func short(_ value: Money) -> String {
        let units = value.nanos / Money.nanosPerUnit
        if units >= 1_000_000 { return "\(units / 1_000_000)." + String(units / 100_000 % 10) + "M" }
        if units >= 10_000 { return "\(units / 1000)k" }
        return money(value).split(separator: ".").first.map(String.init) ?? "0"
    }

    static func count(_ value: Int) -> String { HumanText.count(value) }

    static func fmt(_ value: Double) -> String {
        let scaled = Int64((value * 10).rounded())
        let sign = scaled < 0 ? "-" : ""
        return "\(sign)\(abs(scaled) / 10).\(abs(scaled) % 10)"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}

extension Format {
    /// `12.3%`, exact from integers.
    static func percent(_ part: Int64, of whole: Int64) -> String {
        let tenths = (Int128(part) * 1000 + Int128(whole) / 2) / Int128(whole)
        let value = Int64(tenths)
        return "\(value / 10).\(abs(value % 10))%"
    }
}

/// Formatting helpers the page shares.
enum Format {}
