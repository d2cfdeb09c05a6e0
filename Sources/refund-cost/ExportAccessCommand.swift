import RefundCost

/// `refund-cost export-access`: the access timeline as CSV, for audits and baselines.
enum ExportAccessCommand {
    static let spec = CommandSpec(
        name: "export-access",
        summary: "Write every account's access timeline (what each cost row is classified by) as CSV.",
        usage: "refund-cost export-access --data DIR --out FILE [--as-of TIME] [--environment ENV] [--premature-window DURATION]",
        options: [
            OptionSpec(name: "data", value: "DIR", help: "The input folder."),
            OptionSpec(name: "out", value: "FILE", help: "The CSV to write: account_id,start_ms,class,product_id."),
            CommonOptions.asOf, CommonOptions.environment, CommonOptions.prematureWindow, CommonOptions.quiet, CommonOptions.help,
        ],
        discussion: """
            From start_ms until the account's next row, a cost row of the account gets class, tied to
            product_id. Accounts not listed are unlinked. Use the same --as-of as the report (for a
            month, the first instant of the next month). Rows paid with credits are settled in time
            order by the report and are not described by this timeline.
            """,
        examples: ["refund-cost export-access --data Data/sample --as-of 2026-11-01 --out /tmp/access.csv"])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let command = spec.name
        let data = try arguments.required("data", command: command)
        let out = try arguments.required("out", command: command)
        let asOf = try arguments.asOf(command: command, default: Timestamp(milliseconds: Int64.max / 2))
        let layout = try InputLayout(root: data)
        let rejects = RejectLog()
        let load = try AppStoreLoad(
            layout: layout, options: AppStoreOptions(environment: try arguments.environment(command: command), asOf: asOf), rejects: rejects)
        let ledger = try Ledger(
            input: load.input, accountLinks: load.accountLinks, products: load.products,
            options: LedgerOptions(asOf: asOf, prematureWindow: try arguments.duration("premature-window", default: .hours(2), command: command)),
            rejects: rejects)
        try AccessExport.write(ledger, to: out)
        if !arguments.has("quiet") { print("wrote \(out): \(Format.count(ledger.accounts.count)) accounts") }
        return rejects.count > 0 ? 1 : 0
    }
}
