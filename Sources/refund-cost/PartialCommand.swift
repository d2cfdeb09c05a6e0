import Ingest
import Pipeline
import Support

/// `refund-cost partial`: step 2.
enum PartialCommand: Command {
    static let spec = CommandSpec(
        name: "partial",
        summary:
            "Step 2 of a distributed report: the cost rows of some whole cost files, or of a piece of one, as exact partial totals.",
        usage:
            "refund-cost partial --snapshot FILE (--file COSTFILE [--file ...] | --split FILE --piece K) --partial FILE [--seeds FILE ...] --data DIR --month YYYY-MM [options]",
        options: DistributedHelp.stepOptions([
            DistributedHelp.snapshot.spec, file.spec, DistributedHelp.split.spec, DistributedHelp.piece.spec, partial.spec,
            seeds.spec,
            SnapshotCommand.partialGroups.spec,
        ]),
        discussion: DistributedHelp.discussion,
        examples: [
            "refund-cost partial --snapshot /tmp/refund-cost-example/work/2026-10.snapshot --file 2026-08.csv --file 2026-09.csv --file 2026-10.csv --partial /tmp/refund-cost-example/work/parts/a.partial --data Data/sample --month 2026-10 --trust-root Data/sample/test-root.der"
        ])

    static let file = Option(
        "file", "COSTFILE", help: "A cost file to read: its path as the snapshot lists it, or its name in costs/.",
        repeatable: true)
    static let partial = Option.path("partial", "FILE", help: "Where to write the partial.")
    static let seeds = Option.path(
        "seeds", "FILE",
        help: "Request ids settled in other partials (from settle; one file for each part that named this partial).",
        repeatable: true)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (options, quiet) = try ReportCommand.reportOptions(arguments, needsOut: false)
        let files = try arguments.values(file)
        let wanted = try DistributedHelp.pieceWanted(
            arguments, files: files, file: file, missing: "--file COSTFILE", command: spec.name)
        let out = try arguments.required(partial)
        let started = Clock.monotonicSeconds()
        let partial = try DistributedRun.partial(
            options, snapshot: try arguments.required(DistributedHelp.snapshot), files: files, piece: wanted,
            seeds: try arguments.values(seeds), accountGroups: try arguments.value(SnapshotCommand.partialGroups) ?? 1, to: out,
            secret: try StepSecret.fromEnvironment())
        if !quiet {
            let rows = partial.reading.summaries.reduce(0) { $0 + $1.rows }
            let read =
                partial.piece.map { "\($0.description) of \(partial.files.first ?? "")" } ?? "\(partial.files.count) cost files"
            print(
                "refund-cost partial: \(out): \(read), \(Format.count(rows)) rows, "
                    + "\(partial.reading.rowRejects.count + partial.reading.headerRejects.count) rejected, in \(Format.seconds(Clock.monotonicSeconds() - started))"
            )
        }
        return 0
    }
}
