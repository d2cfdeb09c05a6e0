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
        options: [DataOptions.specs[0]] + [
            OptionSpec(name: "rejects", value: "FILE", help: "Write every rejected row to FILE as CSV: file,line,field,value,reason.")
        ] + DataOptions.specs.dropFirst() + [CommonOptions.help],
        discussion: """
            Notifications, transaction history, accounts.csv and products.csv are decoded and the
            ledger is built: the counts show retries dropped, other environments left out, how
            access ended and how family members were linked to purchases.

            Every cost row is checked: a timestamp (ISO-8601 with Z or an offset, 'YYYY-MM-DD HH:MM:SS'
            in UTC, or epoch milliseconds), a non-empty account_id, a plain decimal cost, a three-letter
            currency when the column is there. A refused row is printed as 'file:line: error: ...' and,
            with --rejects, written to a CSV you can open beside the input. Rows that repeat a request_id
            already seen are dropped and counted, not rejected.

            Exit status: 0 when the inputs are clean (or rejects are within --max-rejects), 1 when more
            rows were rejected than allowed or a file cannot be read, 2 for a usage error.
            """,
        examples: [
            "refund-cost validate --data Data/sample",
            "refund-cost validate --data exports/ --rejects /tmp/rejects.csv --max-rejects 100",
            "refund-cost validate --data exports/ --cost-column cost=amount_usd --cost-column timestamp=ts",
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let command = spec.name
        let common = try DataOptions(arguments, command: command)
        let data = common.data
        let maxRejects = common.maxRejects
        let mapping = common.costColumns
        let layout = try InputLayout(root: data)
        let rejects = RejectLog()
        if let path = arguments.value("rejects") { try rejects.streamTo(path) }
        let reader = CostFileReader(mapping: mapping, rejects: rejects)
        let progress = ProgressLine(quiet: common.quiet)

        let totalBytes = layout.costFiles.reduce(0) { $0 + (FileSystem.fileSize($1) ?? 0) }
        print("refund-cost validate: \(data) (\(layout.costFiles.count) cost files, \(Format.megabytes(totalBytes)))")
        print("")
        print(
            Format.padRight("cost file", 36) + Format.padLeft("rows", 14) + Format.padLeft("accepted", 14)
                + Format.padLeft("rejected", 10) + Format.padLeft("duplicates", 12) + Format.padLeft("MB/s", 9))
        var accepted = CostTotals()
        var rejectedCost = CostTotals()
        var duplicateCost = CostTotals()
        var rows = 0
        var duplicates = 0
        for path in layout.costFiles {
            let started = Clock.monotonicSeconds()
            var fileRows = 0
            let summary = try reader.read(
                path: path, onBytes: { progress.advance(bytes: $0.count, rows: fileRows, file: HumanText.relative(path, to: data)) }
            ) { _ in fileRows += 1 }
            let seconds = Clock.monotonicSeconds() - started
            rows += summary.rows
            duplicates += summary.duplicates
            try accepted.add(summary.acceptedCost)
            try rejectedCost.add(summary.rejectedCost)
            try duplicateCost.add(summary.duplicateCost)
            print(
                Format.padRight(HumanText.relative(path, to: data), 36) + Format.padLeft(Format.count(summary.rows), 14)
                    + Format.padLeft(Format.count(summary.accepted), 14) + Format.padLeft(Format.count(summary.rejected), 10)
                    + Format.padLeft(Format.count(summary.duplicates), 12)
                    + Format.padLeft(Format.rate(Double(summary.bytes) / 1e6 / seconds), 9))
        }
        let costSeconds = progress.elapsed

        let ledgerOptions = common.ledgerOptions(asOfDefault: DataOptions.everything)
        let loaded = try LedgerLoad(data: data, options: ledgerOptions, rejects: rejects)
        try rejects.commit()
        LedgerSummary.print(loaded.appStore, loaded.ledger, environment: common.environment, asOf: ledgerOptions.asOf)

        print("")
        print("cost accepted, by currency:")
        for (currency, amount) in accepted.sorted { print("  \(currency)  \(Format.padLeft(amount.description, 22))") }
        if duplicates > 0 {
            let money = duplicateCost.sorted.map { "\($0.amount) \($0.currency)" }.joined(separator: ", ")
            print("duplicates dropped (request_id seen before): \(Format.count(duplicates)) rows, \(money)")
        }
        let seconds = costSeconds
        print(
            "read \(Format.count(rows)) cost rows, \(Format.megabytes(totalBytes)) in \(Format.seconds(seconds)): "
                + "\(Format.count(Int(Double(rows) / max(seconds, 1e-9)))) rows/s, "
                + "\(Format.rate(Double(totalBytes) / 1e6 / max(seconds, 1e-9))) MB/s, "
                + "peak memory \(Format.megabytes(Clock.peakResidentBytes()))")

        guard rejects.count > 0 else {
            print("no problems found")
            return 0
        }
        let money = rejectedCost.sorted.map { "\($0.amount) \($0.currency)" }.joined(separator: ", ")
        print("rejected: \(Format.count(rejects.count)) rows" + (money.isEmpty ? "" : " (readable cost \(money))"))
        for (reason, count) in rejects.countsByReason.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            print("  \(Format.padLeft(Format.count(count), 10))  \(reason)")
        }
        for reject in rejects.firstRejects { writeStandardError(reject.description + "\n") }
        if rejects.count > rejects.firstRejects.count {
            writeStandardError("... and \(Format.count(rejects.count - rejects.firstRejects.count)) more\n")
        }
        let where_ = arguments.value("rejects").map { "all of them are in \($0)" } ?? "add --rejects FILE to get all of them as CSV"
        if rejects.count > maxRejects {
            writeStandardError(
                "error: \(Format.count(rejects.count)) rows rejected, more than --max-rejects \(maxRejects); \(where_)\n")
            return 1
        }
        print("within --max-rejects \(maxRejects); \(where_)")
        return 0
    }
}
