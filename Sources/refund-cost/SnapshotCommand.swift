import Ingest
import Pipeline
import Support

/// `refund-cost snapshot`: step 1.
enum SnapshotCommand: Command {
    static let spec = CommandSpec(
        name: "snapshot",
        summary: "Step 1 of a distributed report: the App Store side, read and verified once, into one file.",
        usage: "refund-cost snapshot --snapshot FILE --data DIR --month YYYY-MM [options]",
        options: DistributedHelp.stepOptions([snapshotOut.spec, costFiles.spec, decoded.spec]),
        discussion: DistributedHelp.discussion,
        examples: [
            "refund-cost snapshot --snapshot /tmp/refund-cost-example/work/2026-10.snapshot --data Data/sample --month 2026-10 --trust-root Data/sample/test-root.der"
        ])

    static let snapshotOut = Option.path("snapshot", "FILE", help: "Where to write the ledger snapshot.")
    static let costFiles = Option.path(
        "cost-files", "FILE", help: "Also write the cost files the partials must cover, one per line, as --file takes them.")

    static let decoded = Option.path(
        "decoded", "DIR",
        help: "Build it from the App Store files step 0 decoded (every *.decoded in DIR) instead of reading them.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (options, quiet) = try ReportCommand.reportOptions(arguments, needsOut: false)
        let path = try arguments.required(snapshotOut)
        let started = Clock.monotonicSeconds()
        let pieces = try arguments.value(decoded).map { folder in
            try FileSystem.list(folder).filter { $0.name.hasSuffix(".decoded") }.map { folder + "/" + $0.name }
        }
        let snapshot = try DistributedRun.snapshot(
            options, to: path, decoded: pieces, secret: try StepSecret.fromEnvironment())
        if let listing = try arguments.value(costFiles) {
            let file = try AtomicFileWriter(path: listing)
            try file.append(snapshot.layout.costFiles.map { $0 + "\n" }.joined())
            try file.commit()
        }
        if !quiet {
            print(
                "refund-cost snapshot: \(path) (\(Format.megabytes(FileSystem.fileSize(path) ?? 0))): "
                    + "\(Format.count(snapshot.input.transactions.count)) transactions, "
                    + "\(Format.count(snapshot.input.notifications.count)) notifications the ledger reads, "
                    + "\(Format.count(snapshot.layout.costFiles.count)) cost files to partial, "
                    + "\(Format.count(snapshot.rejects.count)) rejected lines, in \(Format.seconds(Clock.monotonicSeconds() - started))"
            )
        }
        return 0
    }
}
