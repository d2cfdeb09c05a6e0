import Attribution
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic

/// `refund-cost report`: the monthly batch.
enum ReportCommand: Command {
    static let spec = CommandSpec(
        name: "report",
        summary: "The monthly batch: attribute every cost row and write every report file.",
        usage:
            "refund-cost report --data DIR --month YYYY-MM --out DIR [options]\n       refund-cost report --data DIR --from DATE --to DATE --out DIR [options]",
        options: DataOptions.around(
            [month.spec, from.spec, to.spec, out.spec, journal.spec, playJournal.spec, allowEmpty.spec, publish.spec],
            asOfDefault: DataOptions.AsOfDefault.windowEnd),
        discussion: """
            Every cost row gets one class: \(CostClass.ruleOrder.map(\.reportName).joined(separator: ", ")),
            decided by the access its account had at the row's time. The window's cost by class
            always adds up to the cost read; the run checks it and says so.

            Written to OUT/LABEL/: \((ReportFiles.csvNames + ["rejects.csv", "run.json"]).joined(separator: ", ")) and
            report.html (open it in a browser). docs/outputs.md describes every column.

            What is read: DIR/costs/*.csv and *.jsonl, DIR/notifications/*.jsonl and *.csv,
            DIR/transactions/*.jsonl (each also gzipped, .gz), and the files at the top of DIR
            (accounts.csv, products.csv, fx.csv, ...; docs/inputs.md). Anything else in those
            folders, a name in another case (Accounts.csv), a sub-folder or a link to nothing is
            a rejected input, named in rejects.csv with its reason (line 0: the whole file).
            While the cost rows are read, their request ids are noted in TMPDIR (else /tmp),
            8 bytes an id, in files with no name that go when the run does.

            Too much for one machine? The same report runs in steps (snapshot, partial, settle,
            merge) that give the same bytes; see `refund-cost snapshot --help`.

            Both stores: Google Play's orders in DIR/play/ are held beside Apple's transactions, and
            every per-purchase file says its store; store_totals.csv splits the totals,
            chargebacks.csv says what each chargeback lost (what Google had passed on, the delivery
            cost, and the bank's fee given with --chargeback-fee), refund_reviews.csv lists Google's
            refund reviews (with --play-journal, whether respond --store play answered them in time
            and whether Google voided the order since).

            Consumption requests: each CONSUMPTION_REQUEST of the window gets the answer the
            evidence supports (delivery from deliveries.csv, use from the cost rows and credits,
            consent from consent.csv) and a refund preference; bodies for consented requests are
            ready to send to Apple's Send Consumption Information endpoint within 12 hours.

            Data Apple signed after --as-of (default: the window's end), and Google Play orders and
            voids after it, are ignored, so re-running a closed month gives the same files. Cost rows before the window count for the sunk cost
            of refunds made in it.

            With --publish URL the finished folder is then loaded into PostgreSQL or SQLite (see
            `refund-cost publish --help`); a failed publish leaves the database as it was and the
            report written, and exits 1.

            Exit status: 0 written; 1 more rejected lines than --max-rejects (only rejects.csv is
            written), an input that cannot be read, such as a missing exchange rate, or a failed
            --publish; 2 usage error.
            """,
        examples: [
            "refund-cost report --data Data/sample --month 2026-10 --out /tmp/refund-cost-example/reports --trust-root Data/sample/test-root.der",
            "refund-cost report --data Data/sample --from 2026-08-01 --to 2026-11-01 --out /tmp/refund-cost-example/reports --grace 30m --trust-root Data/sample/test-root.der",
            "refund-cost report --data Data/sample --month 2026-10 --out /tmp/refund-cost-example/reports --as-of 2026-11-03T00:00:00Z --trust-root Data/sample/test-root.der",
            "refund-cost report --data Data/sample --month 2026-10 --out /tmp/refund-cost-example/reports --chargeback-fee 15 --trust-root Data/sample/test-root.der",
        ])

    static let month = Option<ReportWindow>(
        "month", "YYYY-MM", help: "Report this calendar month (UTC).", expected: "a month like 2026-10, from 1970 to 2199"
    ) { text in
        ReportWindow(month: text).flatMap { $0.start.isInAcceptedRange && $0.end.isInAcceptedRange ? $0 : nil }
    }
    static let from = Option<CivilDate>(
        "from", "DATE", help: "Start of a custom window (YYYY-MM-DD, UTC midnight, included).",
        expected: "a date like 2026-07-01, from 1970 to 2199", convert: acceptedDate)
    static let to = Option<CivilDate>(
        "to", "DATE", help: "End of a custom window (YYYY-MM-DD, excluded).",
        expected: "a date like 2026-10-01, from 1970 to 2199", convert: acceptedDate)
    static let out = Option.path(
        "out", "DIR", help: "Where to write; files go to DIR/YYYY-MM/ (or DIR/FROM_TO/), replaced as a whole.")
    static let journal = Option.path(
        "journal", "FILE",
        help: "The journal of refund-cost respond: say which refund requests were answered within 12 hours.")
    static let playJournal = Option.path(
        "play-journal", "FILE",
        help:
            "The journal of refund-cost respond --store play: say which Google Play refund reviews were answered within 24 hours."
    )
    static let allowEmpty = Flag(
        "allow-empty", help: "Write the report even when the window holds no cost row and no App Store data.")
    static let publish = Option(
        "publish", "URL", help: "Then load the report into this database, as refund-cost publish --database URL does.")

    private static func acceptedDate(_ text: String) -> CivilDate? {
        TimestampParser.parseDate(text).flatMap { $0.start.isInAcceptedRange ? $0 : nil }
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        var (options, quiet) = try reportOptions(arguments)
        // Checked before the run, so a mistyped URL does not wait for the report.
        let publishTo = try arguments.value(publish).map { text throws(UsageError) in
            try PublishCommand.databaseURL(text, option: publish, arguments: arguments)
        }
        options.endsProcess = true
        let progress = ProgressLine(quiet: quiet)
        let outcome = ReportRun.execute(options) { step in
            progress.advance(toBytes: step.bytes, rows: step.rows, file: step.file, unit: step.unit)
        }
        let status = try printOutcome(outcome, options: options, quiet: quiet)
        guard status == 0, let publishTo, let folder = outcome.written?.folder else { return status }
        do {
            let published = try PublishCommand.publish(folder, to: publishTo)
            if !quiet { print(published) }
        } catch {
            writeStandardError(
                "\(error)\nThe report in \(folder)/ is written; publish it again with refund-cost publish --report \(folder) --database URL\n"
            )
            return 1
        }
        return 0
    }

    /// The options of a report (and of each step of a distributed one) from the command line.
    static func reportOptions(_ arguments: ParsedArguments, needsOut: Bool = true) throws
        -> (options: RunOptions, quiet: Bool)
    {
        let common = try DataOptions(arguments)
        let out = needsOut ? try arguments.required(Self.out) : try arguments.value(Self.out) ?? ""
        if !out.isEmpty { try checkApart(out: out, data: common.data, arguments: arguments) }
        let window = try ReportCommand.window(arguments)
        var options = common.runOptions(window: window, asOfDefault: window.end, out: out)
        options.allowEmpty = arguments.isSet(allowEmpty)
        options.journal = try arguments.value(journal)
        options.playJournal = try arguments.value(playJournal)
        // A journal named and not there is a mistake, not a journal that answered nothing.
        for (option, path, writer) in [
            (journal, options.journal, "refund-cost respond"),
            (playJournal, options.playJournal, "refund-cost respond --store play"),
        ] {
            guard let path else { continue }
            switch FileSystem.kind(path) {
            case .missing where !FileSystem.isSymbolicLink(path):
                throw arguments.invalid(option, expected: "the journal \(writer) writes: there is none at this path")
            case .directory, .special:
                // A device or a pipe would be read without end.
                throw arguments.invalid(option, expected: "the journal \(writer) writes: this is not a regular file")
            default: continue
            }
        }
        if !out.isEmpty {
            // OUT/LABEL is replaced whole: a file it reads there would be gone after the run.
            let inputs =
                common.trustRootFiles.map { ($0, DataOptions.trustRoot.flag) }
                + [
                    (options.journal, journal.flag), (options.playJournal, playJournal.flag),
                    (options.verifiedFilesRecord, DataOptions.verifiedFiles.flag),
                ].compactMap { path, flag in path.map { ($0, flag) } }
            try checkOutsideReport(inputs, options: options, arguments: arguments)
        }
        try common.checkFolder(arguments)
        return (options, common.quiet)
    }

    /// Refuses inputs (path, option) that lie in the report folder the run replaces whole,
    /// `OUT/LABEL`: they would be gone once it is written.
    static func checkOutsideReport(_ inputs: [(String, String)], options: RunOptions, arguments: ParsedArguments)
        throws(UsageError)
    {
        let report = FileSystem.resolvedPath(options.out + "/" + options.window.label)
        for (input, option) in inputs {
            let path = FileSystem.resolvedPath(input)
            guard path != report, !path.hasPrefix(report + "/") else {
                throw UsageError.invalidValue(
                    option: option, value: input,
                    expected: "a path outside \(report), the report folder the run replaces (--out and the window)",
                    command: arguments.command)
            }
        }
    }

    /// What the console says after a report: the headline figures, the reconciliation, the
    /// signatures and the speed; or why nothing was written.
    static func printOutcome(_ outcome: ReportOutcome, options: RunOptions, quiet: Bool) throws -> Int32 {
        let window = options.window
        printWarnings(outcome.warnings)
        let written: ReportWritten
        switch outcome {
        case .failed(let diagnostic):
            writeStandardError(diagnostic.description + "\n")
            return 1
        case .refused(let refused):
            writeStandardError(refused.verdict.description + "\n")
            return 1
        case .succeeded(let report):
            written = report
        }
        let figures = written.figures
        let conservation = written.conservation
        let reading = written.reading
        let wholeFiles = RejectAdvice.wholeFileLines(reading.completeness.wholeFiles).map { Diagnostic.warning($0) }
        // Quiet: where the report is, nothing else (warnings still go to stderr).
        if quiet {
            printWarnings(wholeFiles)
            print("\(written.folder)/")
            return 0
        }
        let all = figures.total
        let counts = figures.counts
        let currency = figures.currency
        // Each money line says how it moved against the month before, as the page's cards do.
        let changes = try figures.headlineChanges()
        let noEarlier = window.isCalendarMonth ? "no earlier month in the data" : "not a calendar month: nothing to compare"
        func line(_ label: String, _ text: String, _ change: HeadlineChange?) {
            let moved =
                change.map { $0.words(amount: { "\($0) \(currency)" }, monthName: $0.monthName) } ?? noEarlier
            print("  " + Format.padRight(label, 21) + text + "; " + moved)
        }
        print("refund-cost report \(window.label): \(written.folder)/")
        line("cost served", "\(try all.classes.total()) \(currency)", changes?.costServed)
        line(
            "refunded", "\(all.refundedAmount) \(currency), \(Format.count(all.refunds)) refund\(all.refunds == 1 ? "" : "s")",
            changes?.refunded)
        line("what refunds cost", "\(all.refundSunkCost) \(currency)", changes?.refundSunkCost)
        line(
            "leaked",
            "\(try all.leakedCost()) \(currency) (\(all.leakedBeyondGrace) beyond grace), \(Format.count(counts.leakingAccounts)) accounts",
            changes?.leaked)
        line("recurring loss", "\(all.recurringLossRunRate) \(currency) per 30 days", changes?.recurringLoss)
        line("grace never paid", "\(all.classes[.billingGrace]) \(currency)", changes?.billingGrace)
        if let play = figures.storeTotals.first(where: { $0.store == .googlePlay }), !play.isEmpty {
            // Both stores: Google Play's share, and what its chargebacks lost (store_totals.csv, chargebacks.csv).
            print(
                "  " + Format.padRight("google play", 21) + "\(try play.classes.total()) \(currency) served, "
                    + "\(Format.count(play.refunds)) refund\(play.refunds == 1 ? "" : "s") of \(play.refundedAmount) \(currency)")
            print(
                "  " + Format.padRight("chargebacks lost", 21) + "\(all.chargebacksLost) \(currency), "
                    + "\(Format.count(counts.chargebacks)) chargeback\(counts.chargebacks == 1 ? "" : "s")"
                    + (counts.chargebacks == 0
                        ? ""
                        : options.configuration.chargebackFee.map {
                            " (a bank fee of \($0.formatted(decimals: 6)) \(currency) each)"
                        }
                            ?? " (no bank fee counted: --chargeback-fee)"))
        }
        if counts.consumptionRequests > 0 {
            let outcomes = counts.consumptionByOutcome.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ")
            print("  consumption requests \(counts.consumptionRequests): Apple's decision \(outcomes)")
            if let inTime = counts.consumptionAnsweredInTime {
                // Requests whose 12 hours ended before the journal began were never respond's to answer.
                let before = counts.consumptionBeforeJournal ?? 0
                print(
                    "  answered within 12 hours \(inTime) of \(counts.consumptionRequests - before) (from the journal)"
                        + (before > 0 ? "; \(before) more ended before the journal began" : ""))
            }
            if let answering = figures.answering, answering.answered > 0 {
                let credited = answering.declined - answering.declinedAgainstAnswer
                let baseline = answering.baseline
                print(
                    "  answering earned: Apple declined \(credited) refund\(credited == 1 ? "" : "s") after an answer that "
                        + "preferred it, keeping \(answering.priceKept) \(currency); it decided \(answering.decidedAsPreferred) of "
                        + "\(answering.decided) as the answer preferred"
                        + (answering.decidedBeforeAnswer > 0
                            ? " (\(answering.decidedBeforeAnswer) more decided before the answer, not counted)" : "")
                        + "; it refunded \(answering.priceRefunded) \(currency) on \(answering.granted), whose delivery had cost "
                        + "\(answering.deliveryCostRefunded) \(currency)"
                        + (baseline.requests > 0
                            ? "; without an answer (the same reasons and months) it declined \(baseline.declined) of "
                                + "\(baseline.decided) it decided" : ""))
            }
        }
        print("  \(conservation.sentence(currency: currency))")
        let earlier = reading.filesVerifiedEarlier
        print(
            "  \(reading.signatures.sentence)"
                + (earlier > 0 ? " (The signatures of \(earlier) files verified by an earlier run were not checked again.)" : ""))
        if reading.rejects.rows > 0 {
            print(
                "  \(Format.count(reading.rejects.rows)) rejected rows (within --max-rejects \(options.maxRejects)), see rejects.csv"
            )
        }
        let speed =
            reading.costSeconds > 0
            ? " in \(Format.seconds(reading.costSeconds)) "
                + "(\(Format.count(Int(Double(reading.costRows) / reading.costSeconds))) rows/s, "
                + "\(Format.rate(Double(reading.costBytes) / 1e6 / reading.costSeconds)) MB/s)"
            : " (read by the partials)"
        print(
            "  \(Format.count(reading.costRows)) cost rows, \(Format.megabytes(reading.costBytes))\(speed); total \(Format.seconds(written.totalSeconds)), "
                + "peak memory \(Format.megabytes(Clock.peakResidentBytes()))")
        print("  \(reading.completeness.sentence)")
        print("  open \(written.folder)/report.html")
        // A close that left a file out says so last, where a person looks.
        for warning in wholeFiles { print(warning.description) }
        return 0
    }

    /// `--month`, or `--from` and `--to`: the window.
    private static func window(_ arguments: ParsedArguments) throws(UsageError) -> ReportWindow {
        if let window = try arguments.value(month) {
            guard arguments.text(from) == nil && arguments.text(to) == nil else {
                throw arguments.invalid(month, expected: "either --month or --from/--to, not both")
            }
            return window
        }
        guard let start = try arguments.value(from), let end = try arguments.value(to) else {
            throw .missingOption("--month YYYY-MM (or --from DATE --to DATE)", command: arguments.command)
        }
        guard end > start else { throw arguments.invalid(to, expected: "a date after --from, like 2026-10-01") }
        return ReportWindow(start: start.start, end: end.start, label: "\(start)_\(end)")
    }

    /// `--out` may not be, contain or lie inside `--data`: the swap that replaces `OUT/LABEL`
    /// would otherwise replace or mix with the inputs.
    static func checkApart(out: String, data: String, arguments: ParsedArguments) throws(UsageError) {
        let outPath = FileSystem.resolvedPath(out)
        let dataPath = FileSystem.resolvedPath(data)
        func inside(_ path: String, _ folder: String) -> Bool { folder == "/" || path.hasPrefix(folder + "/") }
        guard outPath != dataPath, !inside(outPath, dataPath), !inside(dataPath, outPath) else {
            throw arguments.invalid(
                Self.out, text: out,
                expected: "a folder apart from --data \(data) (not the same folder, not inside it, not holding it)")
        }
    }
}
