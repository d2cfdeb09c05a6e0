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
            "refund-cost partial --snapshot FILE (--file COSTFILE [--file ...] | --split FILE --piece K) --partial FILE [--seeds FILE ...] [--account-groups G [--route]] --data DIR --month YYYY-MM [options]\n"
            + "       refund-cost partial --snapshot FILE --account-groups G --group K --routed DIR --partial FILE --data DIR --month YYYY-MM [options]",
        options: DistributedHelp.stepOptions([
            DistributedHelp.snapshot.spec, file.spec, DistributedHelp.split.spec, DistributedHelp.piece.spec, partial.spec,
            seeds.spec,
            SnapshotCommand.partialGroups.spec, route.spec, group.spec, routed.spec,
        ]),
        discussion: DistributedHelp.discussion,
        examples: [
            "refund-cost partial --snapshot /tmp/refund-cost-example/work/2026-10.snapshot --file 2026-08.csv --file 2026-09.csv --file 2026-10.csv --partial /tmp/refund-cost-example/work/parts/a.partial --data Data/sample --month 2026-10 --trust-root Data/sample/test-root.der",
            "refund-cost partial --snapshot /tmp/refund-cost-example/work/2026-10.snapshot --file 2026-10.csv --account-groups 2 --route --partial /tmp/refund-cost-example/work/routed/oct.partial --data Data/sample --month 2026-10 --trust-root Data/sample/test-root.der",
            "refund-cost partial --snapshot /tmp/refund-cost-example/work/2026-10.snapshot --account-groups 2 --group 0 --routed /tmp/refund-cost-example/work/routed --partial /tmp/refund-cost-example/work/routed/group-0.partial --data Data/sample --month 2026-10 --trust-root Data/sample/test-root.der",
        ])

    static let file = Option(
        "file", "COSTFILE", help: "A cost file to read: its path as the snapshot lists it, or its name in costs/.",
        repeatable: true)
    static let partial = Option.path("partial", "FILE", help: "Where to write the partial.")
    static let seeds = Option.path(
        "seeds", "FILE",
        help: "Request ids settled in other partials (from settle; one file for each part that named this partial).",
        repeatable: true)

    static let route = Flag(
        "route",
        help:
            "With --account-groups G: attribute no row, but write the rows of each group K of accounts beside --partial FILE "
            + "(FILE.rows-K-of-G), for `partial --group K` to attribute against that group's ledger alone. It reads, "
            + "checks, counts and claims the rows as any partial.")
    static let group = Option.count(
        "group", "K",
        help:
            "Instead of reading cost files, attribute the rows every routing partial (--route) set aside for group K "
            + "(from 0) of --account-groups G, found in --routed DIR, against that group's part of the snapshot.",
        in: 0...(DistributedRun.AccountGrouping.most - 1))
    static let routed = Option.path(
        "routed", "DIR", help: "The folder of the routing partials' rows (their FILE.rows-K-of-G files), for --group K.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (options, quiet) = try ReportCommand.reportOptions(arguments, needsOut: false)
        if let group = try arguments.value(group) {
            return try groupPartial(arguments, options: options, group: group, quiet: quiet)
        }
        if arguments.text(routed) != nil {
            throw arguments.invalid(routed, expected: "--group K beside it: only a group's partial reads routed rows")
        }
        let files = try arguments.values(file)
        let wanted = try DistributedHelp.pieceWanted(
            arguments, files: files, file: file, missing: "--file COSTFILE", command: spec.name)
        let out = try arguments.required(partial)
        let groups = try arguments.value(SnapshotCommand.partialGroups) ?? 1
        if arguments.isSet(route), groups < 2 {
            throw UsageError.needsAnother(
                "--route needs --account-groups G, above 1: the groups the snapshot was cut in", command: spec.name)
        }
        let started = Clock.monotonicSeconds()
        let partial = try DistributedRun.partial(
            options, snapshot: try arguments.required(DistributedHelp.snapshot), files: files, piece: wanted,
            seeds: try arguments.values(seeds), accountGroups: groups, route: arguments.isSet(route), to: out,
            secret: try StepSecret.fromEnvironment())
        if !quiet {
            let rows = partial.reading.summaries.reduce(0) { $0 + $1.rows }
            let read =
                partial.piece.map { "\($0.description) of \(partial.files.first ?? "")" } ?? "\(partial.files.count) cost files"
            print(
                "refund-cost partial: \(out): \(read), \(Format.count(rows)) rows, "
                    + "\(partial.reading.rowRejects.count + partial.reading.headerRejects.count) rejected"
                    + (partial.routedTo.map { ", routed to \($0) groups" } ?? "")
                    + ", in \(Format.seconds(Clock.monotonicSeconds() - started))")
        }
        return 0
    }

    /// `partial --group K`: the rows routed to group K, against its ledger.
    private static func groupPartial(_ arguments: ParsedArguments, options: RunOptions, group: Int, quiet: Bool) throws
        -> Int32
    {
        let taken: [(String, Bool)] = [
            (file.flag, !arguments.texts(file).isEmpty),
            (DistributedHelp.split.flag, arguments.text(DistributedHelp.split) != nil),
            (DistributedHelp.piece.flag, arguments.text(DistributedHelp.piece) != nil),
            (seeds.flag, !arguments.texts(seeds).isEmpty),
        ]
        if let (flag, _) = taken.first(where: \.1) {
            throw arguments.invalid(Self.group, expected: "no \(flag) beside it: a group's partial reads the routed rows alone")
        }
        if arguments.isSet(route) {
            throw arguments.invalid(Self.group, expected: "no --route: a group's partial reads what routing partials wrote")
        }
        let groups = try arguments.required(SnapshotCommand.partialGroups)
        guard groups > 1, group < groups else {
            throw arguments.invalid(
                Self.group,
                expected: groups > 1
                    ? "a group from 0 to \(groups - 1) (--account-groups \(groups))" : "--account-groups G above 1")
        }
        let out = try arguments.required(partial)
        let started = Clock.monotonicSeconds()
        let partial = try DistributedRun.groupPartial(
            options, snapshot: try arguments.required(DistributedHelp.snapshot),
            group: AccountGroup(group: group, groups: groups), routed: try arguments.required(routed), to: out,
            secret: try StepSecret.fromEnvironment())
        if !quiet {
            print(
                "refund-cost partial: \(out): group \(group) of \(groups), the rows of "
                    + "\(partial.routedGroup?.routings.count ?? 0) routing partials, in \(Format.seconds(Clock.monotonicSeconds() - started))"
            )
        }
        return 0
    }
}
