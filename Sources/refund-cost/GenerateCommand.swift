import Attribution
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic

/// `refund-cost generate`: a synthetic, deterministic dataset in the input layout.
enum GenerateCommand: Command {
    static let spec = CommandSpec(
        name: "generate",
        summary: "Write a synthetic, deterministic dataset in the input layout (for trials and benchmarks).",
        usage:
            "refund-cost generate --out DIR --accounts N --seed S [--months M] [--cost-rows-per-account K] [--last-month YYYY-MM] [--cost-form rows|focus|helicone]",
        options: [
            OptionSpec(name: "out", value: "DIR", help: "Folder to write (created; files in it are replaced)."),
            OptionSpec(
                name: "accounts", value: "N",
                help: "Number of accounts (purchasers, family members, buyers of credits, anonymous users)."),
            OptionSpec(name: "seed", value: "S", help: "Seed: the same seed and options give the same bytes."),
            OptionSpec(name: "months", value: "M", help: "Months of cost and events, ending with --last-month (default 3)."),
            OptionSpec(name: "cost-rows-per-account", value: "K", help: "Cost rows per account, about (default 20)."),
            OptionSpec(name: "last-month", value: "YYYY-MM", help: "The last generated month (default 2026-10)."),
            OptionSpec(
                name: "cost-form", value: "FORM",
                help:
                    "rows (default): per-account cost rows; focus: a FOCUS bill, usage rows without cost and allocation.csv "
                    + "(allocated/ holds the rows the allocation makes); helicone: the api requests as Helicone's export."),
            OptionSpec(
                name: "no-credit-use", value: nil, help: "Write credit-pack use as ordinary cost rows (no 'credit' unit)."),
            OptionSpec(
                name: "cut-histories", value: "N",
                help: "Write N transaction histories cut after their first page, hasMore true (default 0)."),
            OptionSpec(
                name: "open-requests", value: "N",
                help: "Add N refund requests still open at the data's end, with consent, for respond (default 0)."),
            OptionSpec(name: "quiet", value: nil, help: "No progress lines on stderr."), CommonOptions.help,
        ],
        discussion: """
            The dataset has families of one to five members sharing subscriptions and lifetime
            purchases, renewals, full and prorated refunds with their members' REVOKEs, family exits
            with and without a date, a reversed refund, upgrades, expiries, credit packs with
            consumption requests, members who still hold a second valid purchase, servers that did
            and did not cut members off, premature grants, free and anonymous use, Sandbox noise,
            retried notifications out of order, V1 notifications in the first month, notifications
            signed after the last month, and cost rows for compute, api, storage and payout.

            Every --cost-form of a seed holds the same rows with the same total cost: the report
            of the focus form equals the report of its allocated/ rows in costs/, and the helicone
            form, read with --cost-format 'helicone-*.csv:helicone', the report of the rows form.
            """,
        examples: [
            "refund-cost generate --out /tmp/refund-cost-example/trial --accounts 2000 --seed 1",
            "refund-cost generate --out /tmp/refund-cost-example/bigger --accounts 5000 --seed 7 --cost-rows-per-account 50",
            "refund-cost generate --out /tmp/refund-cost-example/billed --accounts 2000 --seed 1 --cost-form focus",
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let command = spec.name
        let out = try arguments.required("out", command: command)
        let accounts = try arguments.count("accounts", default: -1, command: command)
        guard accounts > 0 else { throw UsageError.missingOption("--accounts N (at least 1)", command: command) }
        guard let seedText = arguments.value("seed"), let seed = UInt64(seedText) else {
            throw UsageError.missingOption("--seed S (a whole number)", command: command)
        }
        var options = GeneratorOptions(accounts: accounts, seed: seed)
        options.months = max(1, try arguments.count("months", default: 3, command: command))
        options.costRowsPerAccount = try arguments.count("cost-rows-per-account", default: 20, command: command)
        if let text = arguments.value("last-month") {
            guard let date = TimestampParser.parseDate(text + "-01") else {
                throw UsageError.invalidValue(option: "--last-month", value: text, expected: "YYYY-MM", command: command)
            }
            options.lastMonth = date
        }
        options.creditMeteredUse = !arguments.has("no-credit-use")
        if let text = arguments.value("cost-form") {
            guard let form = CostForm(rawValue: text) else {
                throw UsageError.invalidValue(
                    option: "--cost-form", value: text, expected: CostForm.allCases.map(\.rawValue).joined(separator: ", "),
                    command: command)
            }
            options.costForm = form
        }
        options.openRequests = try arguments.count("open-requests", default: 0, command: command)
        options.cutHistories = try arguments.count("cut-histories", default: 0, command: command)
        let quiet = arguments.has("quiet")
        let started = Clock.monotonicSeconds()
        try FileSystem.createDirectory(out)
        let summary = try DatasetGenerator.generate(options, into: out) { done in
            if !quiet {
                writeStandardError("  \(Format.count(done)) accounts, \(Format.seconds(Clock.monotonicSeconds() - started))\n")
            }
        }
        print(
            "wrote \(out): \(Format.count(summary.accounts)) accounts, \(Format.count(summary.transactions)) transactions, "
                + "\(Format.count(summary.notificationLines)) notification lines, \(Format.count(summary.costRows)) cost rows "
                + "in \(Format.seconds(Clock.monotonicSeconds() - started))")
        print("scenarios:")
        for (name, count) in summary.scenarios.sorted(by: { $0.key < $1.key }) {
            print("  " + Format.padRight(name, 34) + Format.padLeft(Format.count(count), 10))
        }
        return 0
    }
}
