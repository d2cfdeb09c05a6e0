import Ingest
import Pipeline
import Support

/// `refund-cost split`: between steps 1 and 2, a large cost file cut into pieces for partials.
enum SplitCommand: Command {
    static let spec = CommandSpec(
        name: "split",
        summary:
            "Before step 0 or step 2 of a distributed report: cut a large App Store file or cost file into pieces to read apart.",
        usage: "refund-cost split --file FILE --pieces N --split FILE --data DIR --month YYYY-MM [options]",
        options: DistributedHelp.stepOptions([file.spec, pieces.spec, splitOut.spec]),
        discussion: DistributedHelp.discussion
            + """

            split reads the file once (holding one block), for its checksum and the place where
            each piece starts: the first record boundary at or after K/N of its bytes, and the
            line it is. A record of a cost file ends at a line feed outside quotes (a quoted field
            may hold a newline); a line of an App Store JSON-lines file ends at any line feed. A
            piece may be empty (a record longer than a piece; a gzip file, a JSON-lines cost file,
            a notification CSV export or UTF-16 text is read whole as piece 0).

            For a cost file, run `partial --split FILE --piece K` for every K from 0 to N-1: each
            reads its piece alone, and merge puts the pieces of the file back together as one
            reading of it. Split the file as the snapshot saw it: a partial refuses a split of the
            file as it was at another time. For an App Store file (notifications/ or
            transactions/), run `decode --split FILE --piece K` for every K instead of decoding
            it whole: the snapshot keeps the pieces in order as one reading of the file. It takes
            the same ARGS as the other steps (a window among them), and reads only --data of them.
            """,
        examples: [
            "refund-cost split --file 2026-10.csv --pieces 4 --split /tmp/refund-cost-example/work/2026-10.csv.split --data Data/sample --month 2026-10",
            "refund-cost split --file notifications/2026-10.jsonl --pieces 4 --split /tmp/refund-cost-example/work/2026-10.jsonl.split --data Data/sample --month 2026-10",
        ])

    static let file = Option(
        "file", "FILE",
        help:
            "The file to cut: a cost file (its path as the snapshot lists it, or its name in costs/) or an App Store file (its path, or inside --data)."
    )
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
