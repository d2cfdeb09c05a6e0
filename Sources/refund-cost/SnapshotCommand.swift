import Ingest
import Pipeline
import Support

/// `refund-cost snapshot`: step 1.
enum SnapshotCommand: Command {
    static let spec = CommandSpec(
        name: "snapshot",
        summary: "Step 1 of a distributed report: the App Store side, read and verified once, into one file.",
        usage: "refund-cost snapshot --snapshot FILE --data DIR --month YYYY-MM [options]",
        options: DistributedHelp.stepOptions([
            snapshotOut.spec, costFiles.spec, decoded.spec, accountGroups.spec, accountsPerGroup.spec,
        ]),
        discussion: DistributedHelp.discussion,
        examples: [
            "refund-cost snapshot --snapshot /tmp/refund-cost-example/work/2026-10.snapshot --account-groups 2 --data Data/sample --month 2026-10 --trust-root Data/sample/test-root.der"
        ])

    static let snapshotOut = Option.path("snapshot", "FILE", help: "Where to write the ledger snapshot.")
    static let costFiles = Option.path(
        "cost-files", "FILE", help: "Also write the cost files the partials must cover, one per line, as --file takes them.")

    static let decoded = Option.path(
        "decoded", "DIR",
        help: "Build it from the App Store files step 0 decoded (every *.decoded in DIR) instead of reading them.")

    static let accountGroups = Option.count(
        "account-groups", "G",
        help:
            "Also write each of G groups of accounts' part of the snapshot beside it (FILE.group-K-of-G), for "
            + "`partial --account-groups G`, which then holds one group's ledger at a time.",
        in: 1...DistributedRun.AccountGrouping.most)

    static let accountsPerGroup = Option.count(
        "accounts-per-group", "N",
        help:
            "Cut the accounts in groups of at most N, written as --account-groups G writes them, G being the "
            + "accounts holding a purchase divided by N, rounded up (at most 4,096); the snapshot says G, and writes "
            + "no group when G is 1. Instead of --account-groups.",
        in: 1...1_000_000_000)

    /// `partial`'s side of the same option.
    static let partialGroups = Option.count(
        "account-groups", "G",
        help:
            "Read the G group snapshots `snapshot --account-groups G` wrote beside --snapshot FILE instead of it, one "
            + "group's ledger at a time (about 1/G of the memory; the cost files are read once a group). The same partial.",
        in: 1...DistributedRun.AccountGrouping.most)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (options, quiet) = try ReportCommand.reportOptions(arguments, needsOut: false)
        let path = try arguments.required(snapshotOut)
        let started = Clock.monotonicSeconds()
        let pieces = try arguments.value(decoded).map { folder in
            try StepFileNameError.entries(of: folder) { $0.hasSuffix(".decoded") }.map { folder + "/" + $0.name }
        }
        let grouping: DistributedRun.AccountGrouping
        switch (try arguments.value(accountGroups), try arguments.value(accountsPerGroup)) {
        case (let groups?, nil): grouping = .groups(groups)
        case (nil, let accounts?): grouping = .accountsPerGroup(accounts)
        case (nil, nil): grouping = .groups(1)
        case (_?, _?):
            throw arguments.invalid(accountsPerGroup, expected: "either --account-groups or --accounts-per-group, not both")
        }
        // Opened first: a listing that cannot be written stops the step before the snapshot is.
        let listing = try arguments.value(costFiles).map { try AtomicFileWriter(path: $0) }
        let (snapshot, groups, accounts) = try DistributedRun.snapshot(
            options, to: path, decoded: pieces, grouping: grouping, secret: try StepSecret.fromEnvironment())
        if let listing {
            try listing.append(snapshot.layout.costFiles.map { $0 + "\n" }.joined())
            try listing.commit()
        }
        if !quiet {
            print(
                "refund-cost snapshot: \(path) (\(Format.megabytes(FileSystem.fileSize(path) ?? 0))): "
                    + "\(Format.count(snapshot.input.transactions.count)) transactions, "
                    + "\(Format.count(snapshot.input.notifications.count)) notifications the ledger reads, "
                    + "\(Format.count(snapshot.layout.costFiles.count)) cost files to partial, "
                    + "\(Format.count(snapshot.rejects.count)) rejected lines"
                    + (accounts.map { ", \(Format.count($0)) accounts holding a purchase" } ?? "")
                    + (groups > 1 ? ", cut in \(Format.count(groups)) groups of accounts (\(path).group-K-of-\(groups))" : "")
                    + ", in \(Format.seconds(Clock.monotonicSeconds() - started))"
            )
        }
        return 0
    }
}
