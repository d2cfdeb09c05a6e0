import Ingest
import Pipeline
import Support

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
        let (options, quiet) = try ReportCommand.reportOptions(arguments)
        let folder = try arguments.required(DistributedHelp.partials)
        let snapshot = try arguments.required(DistributedHelp.snapshot)
        // OUT/LABEL is replaced whole: it must not hold what the merge reads, a partial through
        // a link included.
        let partials = try SettleCommand.partialFiles(folder)
        try ReportCommand.checkOutsideReport(
            [(folder, DistributedHelp.partials.flag), (snapshot, DistributedHelp.snapshot.flag)]
                + partials.flatMap { [($0, DistributedHelp.partials.flag), ($0 + ".claims", DistributedHelp.partials.flag)] },
            options: options, arguments: arguments)
        let outcome = DistributedRun.merge(
            options, snapshot: snapshot, partials: partials,
            settlements: try SettleCommand.settlementFiles(folder), secret: try StepSecret.fromEnvironment())
        return try ReportCommand.printOutcome(outcome, options: options, quiet: quiet)
    }
}
