import Ingest
import Pipeline
import Support

/// `refund-cost decode`: step 0, the App Store files decoded and verified on many machines.
enum DecodeCommand: Command {
    static let spec = CommandSpec(
        name: "decode",
        summary:
            "Step 0 of a distributed report: some whole App Store files, or a piece of one, decoded and verified, for the snapshot.",
        usage:
            "refund-cost decode --list FILE --data DIR --month YYYY-MM [options]\n       refund-cost decode (--file APPSTOREFILE [--file ...] | --split FILE --piece K) --decoded FILE --data DIR --month YYYY-MM [options]",
        options: DistributedHelp.stepOptions([
            list.spec, file.spec, DistributedHelp.split.spec, DistributedHelp.piece.spec, decoded.spec,
        ]),
        discussion: DistributedHelp.discussion
            + """

            A JSON-lines file larger than a task should decode is cut by `refund-cost split` at
            line feeds (a gzip file, a notification CSV export and UTF-16 text are piece 0,
            whole); `decode --split FILE --piece K` then decodes piece K alone, with the file's
            own line numbers. The snapshot takes a file decoded whole or every piece of one split
            of it, and refuses a piece missing, pieces of two splits, or a file decoded both ways.
            """,
        examples: [
            "refund-cost decode --file notifications/2026-09.jsonl --file transactions/history.jsonl --decoded /tmp/refund-cost-example/work/decoded/a.decoded --data Data/sample --month 2026-10 --trust-root Data/sample/test-root.der",
            "refund-cost decode --split /tmp/refund-cost-example/work/2026-10.jsonl.split --piece 1 --decoded /tmp/refund-cost-example/work/decoded/b.decoded --data Data/sample --month 2026-10 --trust-root Data/sample/test-root.der",
        ])

    static let list = Option.path(
        "list", "FILE", help: "Write the App Store files the groups must cover, one per line: its size, a tab, its path.")
    static let file = Option(
        "file", "APPSTOREFILE", help: "An App Store file to decode: its path as --list writes it, or inside --data.",
        repeatable: true)
    static let decoded = Option.path("decoded", "FILE", help: "Where to write the decoded files.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (options, quiet) = try ReportCommand.reportOptions(arguments, needsOut: false)
        if let listing = try arguments.value(list) {
            try DistributedRun.listAppStoreFiles(options, to: listing)
            return 0
        }
        let files = try arguments.values(file)
        let piece = try DistributedHelp.pieceWanted(
            arguments, files: files, file: file, missing: "--list FILE, --file APPSTOREFILE or --split FILE --piece K",
            command: spec.name)
        let out = try arguments.required(decoded)
        let started = Clock.monotonicSeconds()
        let result = try DistributedRun.decode(
            options, files: files, piece: piece, to: out, secret: try StepSecret.fromEnvironment())
        if !quiet {
            let lines = result.files.reduce(0) { $0 + $1.lines }
            let what =
                result.files.first?.piece.map { "\($0.description) of \(result.files.first?.path ?? "")" }
                ?? "\(result.files.count) files"
            print(
                "refund-cost decode: \(out) (\(Format.megabytes(FileSystem.fileSize(out) ?? 0))): \(what), "
                    + "\(Format.count(lines)) lines in \(Format.seconds(Clock.monotonicSeconds() - started))")
        }
        return 0
    }
}
