import Attribution
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic

/// `refund-cost export-access`: the access timeline as CSV, for audits and baselines.
enum ExportAccessCommand: Command {
    static let spec = CommandSpec(
        name: "export-access",
        summary: "Write every account's access timeline (what each cost row is classified by) as CSV.",
        usage: "refund-cost export-access --data DIR --out FILE [options]",
        options: DataOptions.around([out.spec], asOfDefault: DataOptions.AsOfDefault.everything),
        discussion: """
            From start until end (the account's next row), a cost row of the account gets class, tied
            to product_id. An account's first row has no start and its last no end: those fields are
            empty. start is ISO-8601 UTC like every other file; start_ms is the same instant in epoch
            milliseconds. Accounts not listed are unlinked. Use the same --as-of as the report (for a
            month, the first instant of the next month). Rows paid with credits are settled in time
            order by the report and are not described by this timeline.
            """,
        examples: [
            "refund-cost export-access --data Data/sample --as-of 2026-11-01 --out /tmp/refund-cost-example/access.csv --trust-root Data/sample/test-root.der"
        ])

    static let out = Option.path("out", "FILE", help: "The CSV to write: account_id,start_ms,class,product_id,start,end.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let common = try DataOptions(arguments)
        let out = try arguments.required(Self.out)
        try DataOptions.checkOutside(out, option: Self.out, data: common.data, arguments: arguments)
        try common.checkFolder(arguments)
        let pipeline = Pipeline(common.runOptionsOverAllTime())
        let loaded = try pipeline.load()
        printWarnings(pipeline.warnings)
        // Checked before anything is written: a timeline from data with rows left out is not written at all.
        try pipeline.refuseBeyondLimit(consequence: "Nothing was written to \(out).")
        let tally = pipeline.rejects.tally
        try AccessTimelineFile.write(AccessSegmentFigure.all(loaded.ledger, grace: pipeline.options.grace), to: out)
        if !common.quiet {
            print("wrote \(out): \(Format.count(loaded.ledger.accounts.count)) accounts")
            if tally.rows > 0 {
                print("\(Format.count(tally.rows)) rejected rows (within --max-rejects \(common.maxRejects)) were left out")
            }
        }
        return 0
    }
}
