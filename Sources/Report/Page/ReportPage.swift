import Attribution
import Support

/// `report.html`: one self-contained page for people (no scripts, fonts or images from
/// elsewhere).
///
/// It answers, in order: what was served and what came back (the headline), where the money went,
/// whether the leak grows, which products and refunds cost most, who keeps access after it ended,
/// what families cost, the refund requests, and whether the figures reconcile.
enum ReportPage {
    static func write(_ figures: ReportFigures, conservation: Conservation, context: RunContext, to folder: String) throws {
        let file = try AtomicFileWriter(path: folder + "/report.html")
        try file.append(try html(figures, conservation: conservation, context: context))
        try file.commit()
    }

    static func html(_ figures: ReportFigures, conservation: Conservation, context: RunContext) throws -> String {
        typealias T = PageText
        let currency = figures.currency.description
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>refund-cost \(T.escape(figures.window.label))</title>
            <style>\(PageStyle.css)</style></head><body><main>
            <h1>What refunds and leaks cost: \(T.escape(T.periodName(figures.window)))</h1>
            <p class="sub">\(T.days(figures.window)); \(StoreSection.shows(figures) ? "App Store and Google Play" : "App Store") data as of \(T.timeName(figures.asOf)); amounts in \(currency).</p>

            """
        // The first screen is the money; what the data was follows in one line, except that
        // data refused or read unverified is a banner above everything.
        page += refusalBanner(context)
        page += ConsumptionSection.deadlineAlert(figures)
        page += StoreSection.reviewAlert(figures)
        page += try Headline.cards(figures)
        page +=
            "<p class=\"about-line\">\(T.escape(context.signatures.shortSentence)); "
            + "\(context.completeness.complete ? "every input line counted" : "\(T.counted(context.completeness.rejectedRows, "rejected row")) left out"). "
            + "<a href=\"#about\">About this data</a></p>\n"
        page += try StoreSection.html(figures)
        page += try ClassSection.html(figures)
        page += try LeakSection.trend(figures)
        page += try ProductSection.html(figures)
        page += try RefundSection.html(figures)
        page += LeakSection.largest(figures)
        page += LeakSection.subscriptions(figures)
        page += try FamilySection.html(figures)
        page += try ConsumptionSection.html(figures)
        page += BillSection.html(figures)
        page += Glossary.html(figures)
        page += footer(figures, conservation: conservation, context: context)
        return TableRows.labelled(page)
    }

    /// Refused or unverified data is unmissable: the figures below were built without it, or on
    /// data nobody checked.
    private static func refusalBanner(_ context: RunContext) -> String {
        typealias T = PageText
        let refused = context.appStoreRejects
        var text = ""
        if context.signatures.verificationOff {
            text +=
                "<div class=\"alert\" role=\"alert\">The App Store data's signatures were not checked: a forged or altered "
                + "notification would change the figures below.</div>\n"
        }
        if !context.completeness.complete && context.completeness.wholeFiles.isEmpty && refused.rows == 0 {
            text +=
                "<div class=\"alert\" role=\"alert\">\(T.counted(context.completeness.rejectedRows, "input row")) "
                + "\(context.completeness.rejectedRows == 1 ? "was" : "were") rejected and left out of every figure below "
                + "(rejects.csv lists them).</div>\n"
        }
        if refused.rows > 0 {
            text +=
                "<div class=\"alert\" role=\"alert\">\(T.count(refused.rows)) App Store \(refused.rows == 1 ? "line was" : "lines were") refused "
                + "and left out of every figure below: refunds, leaks and family links may be missing. "
                + "\(T.escape(refused.reason ?? ""))</div>\n"
        }
        let whole = context.completeness.wholeFiles
        if !whole.isEmpty {
            text +=
                "<div class=\"alert\" role=\"alert\">\(T.counted(whole.count, "input file")) refused whole, none of \(whole.count == 1 ? "its" : "their") rows counted:<ul>"
            for reject in whole {
                text += "<li>\(T.escape(reject.file)): \(T.counted(reject.rows, "row")); \(T.escape(reject.reason))</li>"
            }
            text += "</ul></div>\n"
        }
        return text
    }

    private static func footer(_ figures: ReportFigures, conservation: Conservation, context: RunContext) -> String {
        typealias T = PageText
        let all = figures.total
        var text =
            "<h2>Reconciliation</h2>\n<p class=\"\(conservation.holds ? "ok" : "fail")\">\(T.escape(conservation.sentence(currency: figures.currency))).</p>\n"
        text +=
            "<p class=\"muted\">\(T.count(figures.costRows.rowsBeforeWindow)) rows before and \(T.count(figures.costRows.rowsAfterWindow)) after the window were read for refund and subscription history only. "
            + "Family refunds: \(all.familyRefunds), family exits: \(all.familyExits), refunds reversed: \(all.refundReversals). "
            + "\(T.count(figures.transactionCount)) transactions, \(T.count(figures.accountCount)) accounts holding them.</p>\n"
        text += "<h2 id=\"about\">About this data</h2>\n"
        text +=
            "<p class=\"trust\(context.signatures.verificationOff || context.signatures.rejected > 0 ? " warn" : "")\">\(T.escape(context.signatures.sentence))</p>\n"
        text +=
            "<p class=\"counted\(context.completeness.complete ? "" : " warn")\">\(T.escape(T.sentenceCase(context.completeness.sentence))).</p>\n"
        if StoreSection.shows(figures) {
            // Google signs none of it: say what it is trusted as (docs/inputs.md, play/).
            let orders = figures.storeTotals.first { $0.store == .googlePlay }?.paidTransactions ?? 0
            text +=
                "<p>Google Play's data (play/: notifications, voided purchases, orders, purchases) is not signed as "
                + "Apple's is: it is read as the app's server and refund-cost fetch stored it, so it is trusted as that "
                + "server is. \(T.counted(orders, "Google Play order")) of the window counted as purchases; "
                + "\(T.counted(figures.chargebacks.count, "chargeback")) and \(T.counted(figures.refundReviews.count, "refund review")) "
                + "in it.</p>\n"
        }
        let counted = CountLine.rows(context.appStoreCounts)
        if !counted.isEmpty {
            // The same counts as run.json and `validate`: what the App Store files held and what was left out.
            text += "<div class=\"scroll\"><table><tr><th>App Store data</th><th class=\"n\">count</th></tr>\n"
            for row in counted {
                // A breakdown's names are indented under the count they break down.
                let nested = row.label.hasPrefix("  ")
                let label = T.escape(nested ? String(row.label.dropFirst(2)) : row.label)
                text +=
                    "<tr><td\(nested ? " class=\"nested\"" : "")>\(label)</td><td class=\"n\">\(T.escape(row.value))</td></tr>\n"
            }
            text += "</table></div>\n"
        }
        text += "<div class=\"scroll\"><table><tr><th>file</th><th class=\"n\">bytes</th><th>SHA-256</th></tr>\n"
        for input in context.inputs {
            text +=
                "<tr><td>\(T.escape(input.path))</td><td class=\"n\">\(T.count(input.bytes))</td><td><code>\(input.sha256.prefix(16))…</code></td></tr>\n"
        }
        return text
            + "</table></div>\n<p class=\"muted\">Written by refund-cost \(ToolVersion.current). The CSV files beside this page hold every figure; docs/outputs.md explains each column.</p>\n</main></body></html>\n"
    }
}

/// The page's look: system fonts, cards, tables that scroll inside themselves rather than
/// widen the page.
enum PageStyle {
    static let css = """
        body{font:15px/1.45 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1f2933;margin:0;background:#f5f7fa}
        main{max-width:1040px;margin:0 auto;padding:28px 24px 48px}
        h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:36px 0 10px}h3{font-size:15px;margin:18px 0 8px}
        .sub{color:#52606d;margin:0 0 22px}
        .cards{display:grid;grid-template-columns:repeat(3,1fr);gap:12px}
        .card{background:#fff;border-radius:8px;padding:14px 16px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
        .card .label{color:#52606d;font-size:13px}.card .value{font-size:22px;font-weight:600;margin:4px 0}
        .card .note{color:#52606d;font-size:12.5px}
        .bad .value{color:#c62828}.loss .value{color:#6a1b9a}
        .alert{background:#fdecea;border-left:4px solid #c62828;border-radius:6px;padding:12px 16px;margin:0 0 16px;font-size:17px;font-weight:600;color:#8e1c1c}
        .scroll{overflow-x:auto}
        table{border-collapse:collapse;width:100%;background:#fff;border-radius:8px;overflow:hidden;box-shadow:0 1px 2px rgba(0,0,0,.08)}
        th,td{padding:7px 10px;text-align:left;border-bottom:1px solid #e4e7eb;font-size:13.5px;vertical-align:top}
        td:first-child,td.n,td.d{white-space:nowrap}
        th{background:#eef1f4;font-weight:600}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
        .swatch{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:6px;vertical-align:-1px}
        .panel{background:#fff;border-radius:8px;padding:14px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
        .ok{color:#2e7d32}.fail{color:#c62828;font-weight:600}
        .muted{color:#7b8794;font-size:12.5px}td.nested{padding-left:22px}code{font-size:12.5px}
        .trust{margin:0 0 6px;font-size:13.5px}.trust.warn{color:#c62828;font-weight:600}
        .counted{margin:0 0 12px;font-size:13.5px;color:#52606d}.counted.warn{color:#c62828;font-weight:600}
        .about-line{margin:12px 0 0;font-size:13px;color:#52606d}.about-line a{color:#1d4ed8}
        .card .change{font-size:13px;font-weight:600;color:#52606d;margin:0 0 4px}
        .card .change.worse{color:#c62828}.card .change.better{color:#2e7d32}
        .alert ul{margin:6px 0 0;padding-left:20px;font-size:14px;font-weight:400}
        @media (max-width:760px){.cards{grid-template-columns:1fr 1fr}}
        p,h1,h2,li{overflow-wrap:break-word}
        .chart-narrow{display:none}
        dl.glossary{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px;margin:0;font-size:13.5px}
        dl.glossary dt{font-weight:600}dl.glossary dd{margin:0}
        @media (max-width:600px){
        main{padding:18px 12px 36px}h1{font-size:21px}
        .scroll{overflow-x:visible}
        table.rows,table.rows tbody,table.rows tr,table.rows td,table.rows th{display:block}
        table.rows tr:first-child{display:none}
        table.rows tr{border-bottom:1px solid #e4e7eb;padding:6px 0}
        table.rows td,table.rows th{display:flex;justify-content:space-between;gap:12px;border:0;padding:2px 10px;white-space:normal;text-align:right;background:none}
        table.rows td::before,table.rows th::before{content:attr(data-label);color:#52606d;font-weight:400;text-align:left}
        table.rows td:first-child,table.rows th:first-child{justify-content:flex-start;font-weight:600;text-align:left}
        table.rows td:first-child::before,table.rows th:first-child::before{content:none}
        table.rows .meaning,table.rows td:empty,table.rows th:empty{display:none}
        .cards{grid-template-columns:1fr}.card .value{font-size:20px}
        .panel{padding:10px}
        .chart-wide{display:none}.chart-narrow{display:block}
        .meaning{display:none}
        dl.glossary{grid-template-columns:1fr}dl.glossary dd{margin:0 0 6px}
        }
        """
}
