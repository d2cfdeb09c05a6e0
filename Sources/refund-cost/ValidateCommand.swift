import Attribution
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic

/// `refund-cost validate`: reads every input, prints counts and problems, writes nothing
/// else (but `--rejects FILE` when asked).
enum ValidateCommand: Command {
    static let spec = CommandSpec(
        name: "validate",
        summary: "Read and check every input file; print counts, totals and problems.",
        usage: "refund-cost validate --data DIR [--rejects FILE] [options]",
        options: DataOptions.around([rejectsFile.spec], asOfDefault: DataOptions.AsOfDefault.everything),
        discussion: """
            Notifications, transaction history, accounts.csv and products.csv are decoded and the
            ledger is built: the counts show retries dropped, other environments left out, how
            access ended and how family members were linked to purchases.

            Every cost row is checked: a timestamp (ISO-8601 with Z or an offset, 'YYYY-MM-DD HH:MM:SS'
            in UTC, or epoch milliseconds), a non-empty account_id, a plain decimal cost, a three-letter
            currency when the column is there. A refused row is printed as 'file:line: error: ...' and,
            with --rejects, written to a CSV you can open beside the input. Rows that repeat a request_id
            already seen are dropped and counted, not rejected.

            Google Play's files in DIR/play/ (notifications, voided purchases, orders, purchases)
            are read and checked the same way and counted under "Google Play data", with what needs a
            look (orders no account holds, which reports leave out; docs/inputs.md, play/).

            Exit status: 0 when the inputs are clean (or rejects are within --max-rejects), 1 when more
            rows were rejected than allowed or a file cannot be read, 2 for a usage error.
            """,
        examples: [
            "refund-cost validate --data Data/sample --trust-root Data/sample/test-root.der",
            "refund-cost validate --data Data/sample --rejects /tmp/refund-cost-example/rejects.csv --max-rejects 100 --trust-root Data/sample/test-root.der",
            "refund-cost validate --data Data/sample --cost-column 'vendor-*.csv:cost=amount_usd' --trust-root Data/sample/test-root.der",
        ])

    static let rejectsFile = Option.path(
        "rejects", "FILE", help: "Write every rejected row to FILE as CSV: file,line,field,value,reason,rows.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let common = try DataOptions(arguments)
        let rejects = RejectLog()
        if let path = try arguments.value(rejectsFile) {
            try DataOptions.checkOutside(path, option: rejectsFile, data: common.data, arguments: arguments)
            try rejects.streamTo(path)
        }
        try common.checkFolder(arguments)
        let progress = ProgressLine(quiet: common.quiet)
        let options = common.runOptionsOverAllTime()
        let pipeline = Pipeline(options, rejects: rejects)
        let loaded = try pipeline.load(keepingPlay: true) { step in
            progress.advance(toBytes: step.bytes, rows: step.rows, file: step.file, unit: step.unit)
        }
        // Cost files go through exactly the reader and checks `report` uses, over all time, so
        // the two commands agree on every row; no row is attributed.
        let started = Clock.monotonicSeconds()
        let reading = try pipeline.check(loaded) { step in
            progress.advance(toBytes: step.bytes, rows: step.rows, file: step.file, unit: step.unit)
        }
        let seconds = Clock.monotonicSeconds() - started
        let play = loaded.play
        try rejects.commit()
        printWarnings(pipeline.warnings)

        printCostFiles(reading.summaries, data: common.data)
        LedgerSummary.print(loaded.appStore, loaded.ledger, environment: common.environment, asOf: options.asOf)
        // Whose each purchase token is, worked out once for the counts and for what to look at.
        let playAccounts = play.map(PlayAccounts.init)
        if let play, let playAccounts { PlaySummary.print(play, accounts: playAccounts) }
        try printCostTotals(reading.summaries, seconds: seconds, total: progress.elapsed)
        if let allocation = reading.allocation { printBill(allocation) }
        return try report(
            rejects, summaries: reading.summaries, maxRejects: common.maxRejects, file: try arguments.value(rejectsFile),
            toLookAt: toLookAt(loaded)
                + (play.flatMap { input in playAccounts.map { PlaySummary.toLookAt(input, accounts: $0) } } ?? []))
    }

    /// What is not a rejected line but still not right: said instead of "no problems found".
    private static func toLookAt(_ loaded: LedgerLoad) -> [String] {
        var found: [String] = []
        let ambiguous = loaded.ledger.familyLinks.filter { $0.method == .ambiguous }.count
        if ambiguous > 0 {
            found.append(
                "\(Format.count(ambiguous)) family \(ambiguous == 1 ? "member matches" : "members match") more than one purchase "
                    + "(family links: ambiguous), so \(ambiguous == 1 ? "its" : "their") cost is in no refund's sunk cost")
        }
        let histories = loaded.appStore.input.counts.incompleteHistories.count
        if histories > 0 {
            found.append(
                "\(Format.count(histories)) transaction \(histories == 1 ? "history is" : "histories are") cut short "
                    + "(refund-cost fetch transactions --incomplete fetches the rest)")
        }
        let unmatched = loaded.ledger.unmatchedAppAccountTokens
        if unmatched > 0 {
            found.append("\(Format.count(unmatched)) appAccountTokens match no account of accounts.csv")
        }
        return found
    }

    private static func printCostFiles(_ summaries: [CostFileSummary], data: String) {
        let bytes = summaries.reduce(0) { $0 + $1.bytes }
        print("refund-cost validate: \(data) (\(summaries.count) cost files, \(Format.megabytes(bytes)))")
        print("")
        print(
            Format.padRight("cost file", 36) + Format.padLeft("rows", 14) + Format.padLeft("accepted", 14)
                + Format.padLeft("rejected", 10) + Format.padLeft("duplicates", 12))
        for summary in summaries {
            print(
                Format.padRight(HumanText.relative(summary.path, to: data), 36) + Format.padLeft(Format.count(summary.rows), 14)
                    + Format.padLeft(Format.count(summary.accepted), 14) + Format.padLeft(Format.count(summary.rejected), 10)
                    + Format.padLeft(Format.count(summary.duplicates), 12))
        }
    }

    /// The FOCUS bill: what was read, spread over usage, and left, by reason.
    private static func printBill(_ allocation: PoolAllocation) {
        print("")
        print(
            "FOCUS bill (\(allocation.poolFiles.joined(separator: ", "))): \(Format.count(allocation.poolRows)) pool rows, "
                + allocation.balance + (allocation.holds ? "" : " (DOES NOT HOLD: please report it with the files)"))
        for line in allocation.lines where !line.allocated {
            print(
                "  unallocated \(CivilDate(dayNumber: line.day)) \(line.serviceName): "
                    + "\(line.cost) \(line.currency), \(line.reason)")
        }
    }

    private static func printCostTotals(_ summaries: [CostFileSummary], seconds: Double, total: Double) throws {
        var accepted = CostTotals()
        var duplicateCost = CostTotals()
        for summary in summaries {
            try accepted.add(summary.acceptedCost)
            try duplicateCost.add(summary.duplicateCost)
        }
        let rows = summaries.reduce(0) { $0 + $1.rows }
        let bytes = summaries.reduce(0) { $0 + $1.bytes }
        let duplicates = summaries.reduce(0) { $0 + $1.duplicates }
        print("")
        print("cost accepted, by currency:")
        for (currency, amount) in accepted.sorted { print("  \(currency)  \(Format.padLeft(amount.description, 22))") }
        if duplicates > 0 {
            let money = duplicateCost.sorted.map { "\($0.amount) \($0.currency)" }.joined(separator: ", ")
            print("duplicates dropped (request_id seen before): \(Format.count(duplicates)) rows, \(money)")
        }
        print(
            "read \(Format.count(rows)) cost rows, \(Format.megabytes(bytes)) in \(Format.seconds(seconds)): "
                + "\(Format.count(Int(Double(rows) / max(seconds, 1e-9)))) rows/s, "
                + "\(Format.rate(Double(bytes) / 1e6 / max(seconds, 1e-9))) MB/s; \(Format.seconds(total)) in all with the "
                + "App Store files, peak memory \(Format.megabytes(Clock.peakResidentBytes()))")
    }

    /// Prints the rejects by reason (the first ones on stderr) and decides the exit status.
    private static func report(
        _ rejects: RejectLog, summaries: [CostFileSummary], maxRejects: Int, file: String?, toLookAt: [String]
    ) throws -> Int32 {
        let tally = rejects.tally
        guard tally.lines > 0 else {
            if toLookAt.isEmpty {
                print("no problems found")
            } else {
                print("no rejected lines; to look at:")
                for item in toLookAt { print("  " + item) }
            }
            return 0
        }
        if !toLookAt.isEmpty {
            print("also to look at:")
            for item in toLookAt { print("  " + item) }
        }
        var rejectedCost = CostTotals()
        for summary in summaries { try rejectedCost.add(summary.rejectedCost) }
        let money = rejectedCost.sorted.map { "\($0.amount) \($0.currency)" }.joined(separator: ", ")
        print(
            "rejected: \(Format.count(tally.rows)) rows in \(Format.count(tally.lines)) rejects"
                + (money.isEmpty ? "" : " (readable cost \(money))"))
        for (reason, count) in tally.reasons { print("  \(Format.padLeft(Format.count(count), 10))  \(reason)") }
        for line in RejectAdvice.wholeFileLines(tally.wholeFiles) { print(line) }
        let whereToLook = file.map { "all of them are in \($0)" } ?? "add --rejects FILE to get all of them as CSV"
        if let verdict = RejectLimitError.verdict(tally, maxRejects: maxRejects, consequence: "Listed: \(whereToLook).") {
            writeStandardError(verdict.description + "\n")
            return 1
        }
        for reject in tally.samples { writeStandardError(reject.description + "\n") }
        if tally.lines > tally.samples.count {
            writeStandardError("... and \(Format.count(tally.lines - tally.samples.count)) more\n")
        }
        print("within --max-rejects \(maxRejects); \(whereToLook)")
        return 0
    }
}
