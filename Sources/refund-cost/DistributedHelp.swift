import Pipeline
import Support

/// The steps of a report run on many machines (docs/contract.md, Past one machine).
///
/// Each takes the
/// options `report` takes (the same ones for every step), plus its own.
enum DistributedHelp {
    static let discussion = """
        A report in steps, for data too large for one machine (scaleout/ drives them on Spark):

          0. refund-cost decode --list APPSTORE.txt ARGS, then for each group of whole files
             refund-cost decode --file APPSTOREFILE ... --decoded G.decoded ARGS
             decodes and verifies some of the App Store files, on any machine that sees --data;
             a large JSON-lines file is cut first, refund-cost split --data DIR --file
             APPSTOREFILE --pieces N --split F.split, and each piece K decoded by its own decode
             (--split F.split --piece K instead of --file);
          1. refund-cost snapshot --snapshot S.snapshot [--decoded DIR]
             [--account-groups G | --accounts-per-group N] ARGS
             reads the rest of the App Store side (accounts, products, rates, consent,
             deliveries) and, from step 0's files or by reading them itself, the notifications
             and transactions, into one file (and with G, each group of accounts' part of it,
             S.snapshot.group-K-of-G for K from 0 to G-1; with N, G is what holds at most N
             accounts a group, and the snapshot says it);
          2. refund-cost partial --snapshot S.snapshot --file COSTFILE ... --partial P.partial
             [--account-groups G] ARGS
             attributes the rows of some whole cost files, on any machine that sees --data (with
             G, holding one group's ledger at a time); writes P.partial and P.partial.claims;
             a large file is cut first, refund-cost split --data DIR --file COSTFILE --pieces N
             --split F.split, and each piece K read by its own partial (--split F.split --piece K
             instead of --file); with G and --route, it attributes nothing but writes each group
             K's rows beside P.partial (P.partial.rows-K-of-G), for step 3b;
          3. refund-cost settle --snapshot S.snapshot --partials DIR [--part K/N]
             finds request ids claimed in two partials (with --part, those of hash partition K of
             N, K from 0 to N-1: run it for each K); prints each partial to compute again, with its
             seeds: run step 2 again for it with --seeds for every seeds file beside it
             (P.partial.seeds, or P.partial.K-of-N.seeds of each part), then settle again, every
             part K (a partial computed again makes every part's earlier record stale);
         3b. with --route, once settled: for each group K from 0 to G-1,
             refund-cost partial --snapshot S.snapshot --account-groups G --group K --routed DIR
             --partial DIR/group-K.partial ARGS
             attributes every DIR/*.rows-K-of-G against group K's ledger alone (DIR: the
             partials' folder, where the merge reads it too); run them all again whenever a
             routing partial is computed again;
          4. refund-cost merge --snapshot S.snapshot --partials DIR ARGS
             writes OUT/LABEL/ exactly as `refund-cost report ARGS` would.

        ARGS are report's options (--data, --month or --from/--to, --out and the rest), the same for
        every step that takes them (all but settle): a step refuses a snapshot or partials made
        with others. Partials are pure functions of their inputs, so a step that runs twice
        writes the same content.

        Every step reads the run's secret from REFUND_COST_STEP_SECRET (the same for every step of
        a run, at least 32 characters: export REFUND_COST_STEP_SECRET=$(openssl rand -hex 32);
        scaleout/driver.py draws one). The files the steps hand each other are authenticated with
        it, so a file altered or made by anyone without it is refused.
        """

    /// Report's own options (the same declarations: every step reads them as report does), then
    /// the step's.
    static func stepOptions(_ extra: [OptionSpec]) -> [OptionSpec] {
        typealias R = ReportCommand
        return DataOptions.around(
            [R.month.spec, R.from.spec, R.to.spec, R.out.spec, R.allowEmpty.spec, R.journal.spec, R.playJournal.spec] + extra,
            asOfDefault: DataOptions.AsOfDefault.windowEnd)
    }

    static let snapshot = Option.path("snapshot", "FILE", help: "The ledger snapshot (step 1).")
    static let split = Option.path(
        "split", "FILE", help: "A file cut by `refund-cost split`: read its piece --piece K instead of whole files.")
    static let piece = Option.count("piece", "K", help: "Which piece of --split FILE to read, from 0.", in: 0...4095)

    /// The piece `--split` and `--piece` ask for, nil when neither is given and `files` (the
    /// `--file` values) are; refused when one of the two comes alone, with `--file`, or when
    /// nothing is asked (`missing` then says what to give).
    static func pieceWanted(
        _ arguments: ParsedArguments, files: [String], file: Option<String>, missing: String, command: String
    ) throws -> PieceWanted? {
        switch (try arguments.value(split), try arguments.value(piece)) {
        case (let split?, let index?):
            guard files.isEmpty else { throw arguments.invalid(file, expected: "either --file or --split and --piece, not both") }
            return PieceWanted(split: split, index: index)
        case (nil, nil):
            guard !files.isEmpty else { throw UsageError.missingOption(missing, command: command) }
            return nil
        case (_?, nil): throw UsageError.missingOption("--piece K", command: command)
        case (nil, _?): throw UsageError.missingOption("--split FILE", command: command)
        }
    }
    static let partials = Option.path("partials", "DIR", help: "The folder of the partials (every *.partial in it).")
}
