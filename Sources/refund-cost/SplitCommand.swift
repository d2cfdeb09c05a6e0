import Ingest
import Pipeline
import Support

/// `refund-cost split`: between steps 1 and 2, a large cost file cut into pieces for partials.
enum SplitCommand: Command {
    static let spec = CommandSpec(
        name: "split",
        summary: "Between steps 1 and 2 of a distributed report: cut a large cost file into pieces for partials to read apart.",
        usage: "refund-cost split --file COSTFILE --pieces N --split FILE --data DIR --month YYYY-MM [options]",
        options: DistributedHelp.stepOptions([file.spec, pieces.spec, splitOut.spec]),
        discussion: DistributedHelp.discussion
            + """

            split reads the file once (holding one block), for its checksum and the place where
            each piece starts: the first record boundary at or after K/N of its bytes, even when
            a quoted field holds a newline, and the line it is. A piece may be empty (a record
            longer than a piece; a gzip or JSON-lines file is read whole as piece 0). Then run
            `partial --split FILE --piece K` for every K from 0 to N-1: each reads its piece alone,
            and merge puts the pieces of the file back together as one reading of it. Split the
            file as the snapshot saw it: a partial refuses a split of the file as it was at
            another time. It takes the same ARGS as the other steps (a window among them), and
            reads only --data of them.
            """,
        examples: [
            "refund-cost split --file 2026-10.csv --pieces 4 --split /tmp/refund-cost-example/work/2026-10.csv.split --data Data/sample --month 2026-10"
        ])

    static let file = Option(
        "file", "COSTFILE", help: "The cost file to cut: its path as the snapshot lists it, or its name in costs/.")
    static let pieces = Option.count(
        "pieces", "N", help: "How many pieces (1 to 4,096): about the file's bytes over what one task should read.",
        in: 1...4096)
    static let splitOut = Option.path("split", "FILE", help: "Where to write the split.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (options, quiet) = try ReportCommand.reportOptions(arguments, needsOut: false)
        let out = try arguments.required(splitOut)
        let split = try DistributedRun.split(
            data: options.data, file: try arguments.required(file),
            pieces: try arguments.required(pieces), to: out, secret: try StepSecret.fromEnvironment())
        if !quiet {
            let empty = split.pieces.filter { $0.start == $0.end }.count
            print(
                "refund-cost split: \(out): \(split.path) (\(Format.count(split.identity.bytes ?? 0)) bytes) in "
                    + "\(split.pieces.count) pieces" + (empty == 0 ? "" : ", \(empty) of them empty"))
        }
        return 0
    }
}
