import Pipeline
import Support

/// The steps of a report run on many machines (docs/contract.md, Past one machine).
///
/// Each takes the
/// options `report` takes (the same ones for every step), plus its own.
enum DistributedHelp {
    static let discussion = """
        A report in steps, for data too large for one machine (scaleout/ drives them on Spark):

          1. refund-cost snapshot --snapshot S.snapshot ARGS
             reads and verifies the App Store side once (notifications, transactions, accounts,
             products, rates, consent, deliveries) into one file;
          2. refund-cost partial --snapshot S.snapshot --file COSTFILE ... --partial P.partial ARGS
             attributes the rows of some whole cost files, on any machine that sees --data;
          3. refund-cost settle --snapshot S.snapshot --partials DIR
             finds request ids claimed in two partials; prints each partial to compute again, with
             its seeds: run step 2 again for it with --seeds P.partial.seeds;
          4. refund-cost merge --snapshot S.snapshot --partials DIR ARGS
             writes OUT/LABEL/ exactly as `refund-cost report ARGS` would.

        ARGS are report's options (--data, --month or --from/--to, --out and the rest), the same for
        every step: a step refuses a snapshot or partials made with others. Partials are pure
        functions of their inputs, so a step that runs twice writes the same content.
        """

    /// Report's own options (the same declarations: every step reads them as report does), then
    /// the step's.
    static func stepOptions(_ extra: [OptionSpec]) -> [OptionSpec] {
        typealias R = ReportCommand
        return DataOptions.around(
            [R.month.spec, R.from.spec, R.to.spec, R.out.spec, R.heavyUse.spec, R.allowEmpty.spec, R.journal.spec] + extra)
    }

    static let snapshot = Option("snapshot", "FILE", help: "The ledger snapshot (step 1).")
    static let partials = Option("partials", "DIR", help: "The folder of the partials (every *.partial in it).")
}

/// `refund-cost snapshot`: step 1.
enum SnapshotCommand: Command {
    static let spec = CommandSpec(
        name: "snapshot",
        summary: "Step 1 of a distributed report: the App Store side, read and verified once, into one file.",
        usage: "refund-cost snapshot --snapshot FILE --data DIR --month YYYY-MM [options]",
        options: DistributedHelp.stepOptions([snapshotOut.spec, costFiles.spec]),
        discussion: DistributedHelp.discussion,
        examples: [
            "refund-cost snapshot --snapshot /tmp/refund-cost-example/work/2026-10.snapshot --data Data/sample --month 2026-10 --trust-root Data/sample/test-root.der"
        ])

    static let snapshotOut = Option("snapshot", "FILE", help: "Where to write the ledger snapshot.")
    static let costFiles = Option(
        "cost-files", "FILE", help: "Also write the cost files the partials must cover, one per line, as --file takes them.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (options, quiet) = try ReportCommand.reportOptions(arguments, needsOut: false)
        let path = try arguments.required(snapshotOut)
        let started = Clock.monotonicSeconds()
        let snapshot = try DistributedRun.snapshot(options, to: path)
        if let listing = try arguments.value(costFiles) {
            let file = try AtomicFileWriter(path: listing)
            try file.append(snapshot.layout.costFiles.map { $0 + "\n" }.joined())
            try file.commit()
        }
        if !quiet {
            print(
                "refund-cost snapshot: \(path) (\(Format.megabytes(FileSystem.fileSize(path) ?? 0))): "
                    + "\(Format.count(snapshot.input.transactions.count)) transactions, "
                    + "\(Format.count(snapshot.input.notifications.count)) notifications, "
                    + "\(Format.count(snapshot.layout.costFiles.count)) cost files to partial, "
                    + "\(Format.count(snapshot.rejects.count)) rejected lines, in \(Format.seconds(Clock.monotonicSeconds() - started))"
            )
        }
        return 0
    }
}

/// `refund-cost partial`: step 2.
enum PartialCommand: Command {
    static let spec = CommandSpec(
        name: "partial",
        summary: "Step 2 of a distributed report: the cost rows of some whole cost files, as exact partial totals.",
        usage:
            "refund-cost partial --snapshot FILE --file COSTFILE [--file ...] --partial FILE [--seeds FILE] --data DIR --month YYYY-MM [options]",
        options: DistributedHelp.stepOptions([DistributedHelp.snapshot.spec, file.spec, partial.spec, seeds.spec]),
        discussion: DistributedHelp.discussion,
        examples: [
            "refund-cost partial --snapshot /tmp/refund-cost-example/work/2026-10.snapshot --file 2026-08.csv --file 2026-09.csv --file 2026-10.csv --partial /tmp/refund-cost-example/work/parts/a.partial --data Data/sample --month 2026-10 --trust-root Data/sample/test-root.der"
        ])

    static let file = Option(
        "file", "COSTFILE", help: "A cost file to read: its path as the snapshot lists it, or its name in costs/.",
        repeatable: true)
    static let partial = Option("partial", "FILE", help: "Where to write the partial.")
    static let seeds = Option("seeds", "FILE", help: "Request ids settled in other partials (from settle).")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (options, quiet) = try ReportCommand.reportOptions(arguments, needsOut: false)
        let files = try arguments.values(file)
        guard !files.isEmpty else { throw UsageError.missingOption("--file COSTFILE", command: spec.name) }
        let out = try arguments.required(partial)
        let started = Clock.monotonicSeconds()
        let partial = try DistributedRun.partial(
            options, snapshot: try arguments.required(DistributedHelp.snapshot), files: files,
            seeds: try arguments.value(seeds), to: out)
        if !quiet {
            let rows = partial.reading.summaries.reduce(0) { $0 + $1.rows }
            print(
                "refund-cost partial: \(out): \(partial.files.count) cost files, \(Format.count(rows)) rows, "
                    + "\(partial.reading.rowRejects.count + partial.reading.headerRejects.count) rejected, in \(Format.seconds(Clock.monotonicSeconds() - started))"
            )
        }
        return 0
    }
}

/// `refund-cost settle`: step 3.
enum SettleCommand: Command {
    static let spec = CommandSpec(
        name: "settle",
        summary: "Step 3 of a distributed report: settle request ids claimed in two partials.",
        usage: "refund-cost settle --snapshot FILE --partials DIR",
        options: [DistributedHelp.snapshot.spec, DistributedHelp.partials.spec, CommonOptions.help],
        discussion: DistributedHelp.discussion
            + """

            It prints one line per partial to compute again, `PARTIAL<TAB>SEEDS`, and nothing when
            every request id is claimed once. The row that comes first in the cost files' order
            keeps its id, as in a report on one machine.
            """,
        examples: [
            "refund-cost settle --snapshot /tmp/refund-cost-example/work/2026-10.snapshot --partials /tmp/refund-cost-example/work/parts"
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let partials = try partialFiles(try arguments.required(DistributedHelp.partials))
        let again = try DistributedRun.settle(snapshot: try arguments.required(DistributedHelp.snapshot), partials: partials)
        for (partial, seeds) in again { print("\(partial)\t\(seeds)") }
        return 0
    }

    /// Every `*.partial` of `folder`, by name.
    static func partialFiles(_ folder: String) throws -> [String] {
        try FileSystem.list(folder).map(\.name).filter { $0.hasSuffix(".partial") }.sorted().map { folder + "/" + $0 }
    }
}

/// `refund-cost merge`: step 4.
enum MergeCommand: Command {
    static let spec = CommandSpec(
        name: "merge",
        summary: "Step 4 of a distributed report: the snapshot and every partial into the report's files.",
        usage: "refund-cost merge --snapshot FILE --partials DIR --data DIR --month YYYY-MM --out DIR [options]",
        options: DistributedHelp.stepOptions([DistributedHelp.snapshot.spec, DistributedHelp.partials.spec]),
        discussion: DistributedHelp.discussion,
        examples: [
            "refund-cost merge --snapshot /tmp/refund-cost-example/work/2026-10.snapshot --partials /tmp/refund-cost-example/work/parts --data Data/sample --month 2026-10 --out /tmp/refund-cost-example/reports --trust-root Data/sample/test-root.der"
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (options, _) = try ReportCommand.reportOptions(arguments)
        let partials = try SettleCommand.partialFiles(try arguments.required(DistributedHelp.partials))
        let outcome = try DistributedRun.merge(
            options, snapshot: try arguments.required(DistributedHelp.snapshot), partials: partials)
        return try ReportCommand.printOutcome(outcome, options: options)
    }
}
