import Ingest
import Pipeline
import Support

/// `refund-cost settle`: step 3.
enum SettleCommand: Command {
    static let spec = CommandSpec(
        name: "settle",
        summary: "Step 3 of a distributed report: settle request ids claimed in two partials.",
        usage: "refund-cost settle --snapshot FILE --partials DIR [--part K/N]",
        options: [DistributedHelp.snapshot.spec, DistributedHelp.partials.spec, part.spec, CommonOptions.help],
        discussion: DistributedHelp.discussion
            + """

            It prints one line per partial to compute again, `PARTIAL<TAB>SEEDS`, and nothing when
            every request id is claimed once. The row that comes first in the cost files' order
            keeps its id, as in a report on one machine. When no id is claimed twice it writes
            DIR/request.settled (DIR/request.K-of-N.settled with --part), which merge reads
            instead of every partial's ids: compute the partials it names again with every seeds
            file beside them (of every part), then settle again. A partial computed with seeds
            that no longer stand (a cost file changed since) is refused, named.

            With --part K/N it settles only the ids of hash partition K of N, holding about 1/N
            of them: run it for every K from 0 to N-1 (on as many machines), give a partial the
            seeds of every part that names it (--seeds repeated), and merge once every part has
            its record.
            """,
        examples: [
            "refund-cost settle --snapshot /tmp/refund-cost-example/work/2026-10.snapshot --partials /tmp/refund-cost-example/work/parts"
        ])

    static let part = Option<RequestPart>(
        "part", "K/N", help: "Settle only the request ids of hash partition K of N (0 <= K < N <= 4096); default: every id.",
        expected: "K/N, two whole numbers with 0 <= K < N <= 4096, like 0/8"
    ) { RequestPart($0) }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let folder = try arguments.required(DistributedHelp.partials)
        let partials = try partialFiles(folder)
        let again = try DistributedRun.settle(
            snapshot: try arguments.required(DistributedHelp.snapshot), partials: partials, in: folder,
            part: try arguments.value(part) ?? .whole, secret: try StepSecret.fromEnvironment())
        for (partial, seeds) in again { print("\(partial)\t\(seeds)") }
        return 0
    }

    /// Every `*.partial` of `folder`, by name.
    static func partialFiles(_ folder: String) throws -> [String] {
        try files(folder, endingWith: ".partial")
    }

    /// Every settlement record of `folder` (`*.settled`), by name.
    static func settlementFiles(_ folder: String) throws -> [String] {
        try files(folder, endingWith: "." + RequestSettlement.suffix)
    }

    private static func files(_ folder: String, endingWith suffix: String) throws -> [String] {
        let entries = try StepFileNameError.entries(of: folder) { $0.hasSuffix(suffix) }
        if let odd = entries.first(where: { $0.kind != .regularFile }) {
            throw NotAStepFileError(path: folder + "/" + odd.name)
        }
        return entries.map(\.name).sorted().map { folder + "/" + $0 }
    }
}

/// A folder, a broken link or a special file named like a step's file in the partials' folder.
struct NotAStepFileError: DiagnosticError {
    var path: String

    var diagnostic: Diagnostic {
        Diagnostic(
            "not a regular file (a folder, a broken link or a special file), but named like a step's file: "
                + "move it out of the partials' folder", file: path)
    }
}
