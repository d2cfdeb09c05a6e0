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
            "refund-cost generate --out DIR --accounts N --seed S [--months M] [--cost-rows-per-account K] [--last-month YYYY-MM] [--cost-form rows|focus|helicone] [--hold-after TIME] [--release-after TIME] [--stores apple,play]",
        options: [
            out.spec, accounts.spec, seed.spec, months.spec, costRowsPerAccount.spec, lastMonth.spec, costForm.spec,
            noCreditUse.spec, cutHistories.spec, openRequests.spec, holdAfter.spec, releaseAfter.spec, stores.spec,
            DataOptions.quiet.spec,
            CommonOptions.help,
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

            The files that grow hold their lines in the order they arrive: notifications as
            received, history pages as their last transaction was signed, cost rows as spent.
            --hold-after TIME writes only what arrived by TIME (the rest is held back); a later
            run with the same options and --release-after TIME appends what arrived after it to
            the same files (up to its own --hold-after, or all of it), as servers append: a way to
            try respond over a day. The slices appended together are the bytes of one run that
            holds nothing back; a release after another time, or over other options, is refused
            and appends nothing. Not with --cost-form focus (a bill is written whole).

            --stores apple,play adds Google Play's part: one account for every four asked (play-NNNNNN),
            each with a pack of gems or a monthly subscription bought on Play, in DIR/play/ as a server
            and refund-cost fetch store them (Pub/Sub push bodies, voidedpurchases.list pages, batchget
            answers, purchases), with refunds, partial refunds, chargebacks, refund reviews, cancelled
            and revoked subscriptions, and their cost rows in costs/. The App Store part is the same
            bytes with or without it.
            """,
        examples: [
            "refund-cost generate --out /tmp/refund-cost-example/trial --accounts 2000 --seed 1",
            "refund-cost generate --out /tmp/refund-cost-example/bigger --accounts 3000 --seed 7 --cost-rows-per-account 50",
            "refund-cost generate --out /tmp/refund-cost-example/billed --accounts 2000 --seed 1 --cost-form focus",
            "refund-cost generate --out /tmp/refund-cost-example/both --accounts 2000 --seed 1 --stores apple,play",
        ])

    static let out = Option.path("out", "DIR", help: "Folder to write (created; files in it are replaced).")
    static let stores = Option<Bool>(
        "stores", "LIST", help: "apple (default), or apple,play for a Google Play part in play/ too.",
        expected: "apple or apple,play"
    ) { text in
        let names = Set(text.split(separator: ",").map { $0.lowercased() })
        guard names.contains("apple"), names.isSubset(of: ["apple", "play"]) else { return nil }
        return names.contains("play")
    }
    static let accounts = Option<Int>.count(
        "accounts", "N", help: "Number of accounts (purchasers, family members, buyers of credits, anonymous users).",
        in: 1...1_000_000_000)
    static let seed = Option<UInt64>(
        "seed", "S", help: "Seed: the same seed and options give the same bytes.", expected: "a whole number"
    ) { UInt64($0) }
    static let months = Option<Int>.count(
        "months", "M", help: "Months of cost and events, ending with --last-month (default 3).", in: 1...1200)
    static let costRowsPerAccount = Option<Int>.count(
        "cost-rows-per-account", "K", help: "Cost rows per account, about (default 20).")
    static let lastMonth = Option<CivilDate>(
        "last-month", "YYYY-MM", help: "The last generated month (default 2026-10).", expected: "YYYY-MM"
    ) { TimestampParser.parseDate($0 + "-01") }
    static let costForm = Option<CostForm>.choice(
        "cost-form", "FORM",
        help:
            "rows (default): per-account cost rows; focus: a FOCUS bill, usage rows without cost and allocation.csv "
            + "(allocated/ holds the rows the allocation makes); helicone: the api requests as Helicone's export.")
    static let noCreditUse = Flag(
        "no-credit-use", help: "Write credit-pack use as ordinary cost rows (no 'credit' unit).")
    static let cutHistories = Option<Int>.count(
        "cut-histories", "N", help: "Write N transaction histories cut after their first page, hasMore true (default 0).")
    static let openRequests = Option<Int>.count(
        "open-requests", "N", help: "Add N refund requests still open at the data's end, with consent, for respond (default 0).")
    static let holdAfter = Option<Timestamp>.time(
        "hold-after", help: "Write only what arrived by TIME; hold the rest back for a later --release-after.")
    static let releaseAfter = Option<Timestamp>.time(
        "release-after", help: "Append to the files in --out what arrived after TIME (the last run's --hold-after).")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let out = try arguments.required(Self.out)
        var options = GeneratorOptions(accounts: try arguments.required(accounts), seed: try arguments.required(seed))
        options.months = try arguments.value(months) ?? 3
        options.costRowsPerAccount = try arguments.value(costRowsPerAccount) ?? 20
        if let date = try arguments.value(lastMonth) { options.lastMonth = date }
        options.creditMeteredUse = !arguments.isSet(noCreditUse)
        options.costForm = try arguments.value(costForm) ?? options.costForm
        options.openRequests = try arguments.value(openRequests) ?? 0
        options.cutHistories = try arguments.value(cutHistories) ?? 0
        options.play = try arguments.value(stores) ?? false
        options.slice = ReleaseSlice(
            after: try arguments.value(releaseAfter)?.milliseconds, upTo: try arguments.value(holdAfter)?.milliseconds)
        if options.slice.holdsBack, options.costForm == .focus {
            throw UsageError.needsAnother(
                "--hold-after and --release-after hold back lines of the files that grow; a FOCUS bill is written whole: "
                    + "use --cost-form rows or helicone", command: spec.name)
        }
        if options.slice.holdsBack, options.play {
            throw UsageError.needsAnother(
                "--hold-after and --release-after slice the App Store files as they arrive; play/ is written whole: "
                    + "leave out --stores play", command: spec.name)
        }
        if let after = options.slice.after, let upTo = options.slice.upTo, upTo <= after {
            throw arguments.invalid(holdAfter, expected: "a time after --release-after (\(Timestamp(milliseconds: after)))")
        }
        if !options.slice.makesFiles, FileSystem.kind(out + "/notifications") != .directory {
            throw arguments.invalid(
                Self.out, expected: "the folder an earlier --hold-after run wrote, to append what it held back")
        }
        let quiet = arguments.isSet(DataOptions.quiet)
        let started = Clock.monotonicSeconds()
        try FileSystem.createDirectory(out)
        let summary = try DatasetGenerator.generate(options, into: out) { done in
            if !quiet {
                writeStandardError("  \(Format.count(done)) accounts, \(Format.seconds(Clock.monotonicSeconds() - started))\n")
            }
        }
        // Quiet: the folder written, nothing else (for scripts).
        guard !quiet else {
            print(out)
            return 0
        }
        if let after = options.slice.after {
            print(
                "appended to \(out): \(Format.count(summary.linesWritten)) lines that arrived after \(Timestamp(milliseconds: after))"
                    + (options.slice.upTo.map { " up to \(Timestamp(milliseconds: $0))" } ?? "")
                    + " in \(Format.seconds(Clock.monotonicSeconds() - started))")
            return 0
        }
        print(
            "wrote \(out): \(Format.count(summary.accounts)) accounts, \(Format.count(summary.transactions)) transactions, "
                + "\(Format.count(summary.notificationLines)) notification lines, \(Format.count(summary.costRows)) cost rows "
                + "in \(Format.seconds(Clock.monotonicSeconds() - started))"
                + (options.slice.upTo.map {
                    "; held back what arrived after \(Timestamp(milliseconds: $0)) (\(Format.count(summary.linesWritten)) lines "
                        + "written): --release-after \(Timestamp(milliseconds: $0)) appends it"
                } ?? ""))
        print("scenarios:")
        for (name, count) in summary.scenarios.sorted(by: { $0.key < $1.key }) {
            print("  " + Format.padRight(name, 34) + Format.padLeft(Format.count(count), 10))
        }
        let root = out + "/" + DatasetGenerator.testRootName
        print("")
        print(
            "Its App Store data is signed by a test certificate chain of its own, not Apple's: only a run that names its root "
                + "with --trust-root \(root) trusts it. Next:")
        print("  refund-cost validate --data \(out) --trust-root \(root)")
        return 0
    }
}
