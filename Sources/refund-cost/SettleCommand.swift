import Ingest
import Pipeline
import Support

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
        let again = try DistributedRun.settle(
            snapshot: try arguments.required(DistributedHelp.snapshot), partials: partials,
            secret: try StepSecret.fromEnvironment())
        for (partial, seeds) in again { print("\(partial)\t\(seeds)") }
        return 0
    }

    /// Every `*.partial` of `folder`, by name.
    static func partialFiles(_ folder: String) throws -> [String] {
        try FileSystem.list(folder).map(\.name).filter { $0.hasSuffix(".partial") }.sorted().map { folder + "/" + $0 }
    }
}
