import Attribution
import Ingest
import Pipeline
import Support

/// The options every command that reads `--data` takes (docs/contract.md, Common options), each
/// declared once with where its value goes (`bindings`): parsed into types, checked against
/// ranges that make sense, and applied to the run's options, so no command sees text.
struct DataOptions {
    /// What the options say of the run, but its window, its time and its output (each command's).
    var run = RunOptions(
        data: "", out: "", window: ReportWindow(start: .earliestAccepted, end: .latestAccepted, label: ""))
    /// Nil when not given: each command has its own default (a report's window end, else everything).
    var asOf: Timestamp?
    var quiet = false
    /// `--trust-root` as given, for messages.
    var trustRootFiles: [String] = []

    var data: String { run.data }
    var environment: AppStoreEnvironment { run.appStore.environment }
    var currency: CurrencyCode { run.appStore.currency }
    var bundleID: String? { run.appStore.bundleID }
    var maxRejects: Int { run.maxRejects }

    /// The longest grace or premature window accepted: a year is already far beyond any use.
    static let longestDuration = TimeSpan.days(366)
    static let maximumThreads = 256

    /// A command's options with the shared group inserted by name.
    ///
    /// `--data` first, the command's own next, the other shared options, then `--help`; no
    /// command places them by position, so none can drop or misplace one. `asOfDefault` is what
    /// this command reads when `--as-of` is not given, as its help page says it.
    static func around(_ own: [OptionSpec], asOfDefault: String) -> [OptionSpec] {
        var shared = specs.filter { $0.name != data.spec.name }
        if let index = shared.firstIndex(where: { $0.name == asOf.spec.name }) {
            shared[index].help = "Ignore data Apple signed after TIME (default: \(asOfDefault))."
        }
        return [data.spec] + own + shared + [CommonOptions.help]
    }

    /// What `--as-of` defaults to, in each command's help.
    enum AsOfDefault {
        static let windowEnd = "the window's end"
        static let everything = "none: everything signed is read"
    }

    static let data = Option.path("data", "DIR", help: "The input folder (costs/, notifications/, accounts.csv, play/, ...).")
    static let asOf = Option<Timestamp>.time("as-of", help: "Ignore data Apple signed after TIME.")
    static let environment = Option<AppStoreEnvironment>.choice(
        "environment", "ENV",
        help: "Production (default), Sandbox, Xcode or LocalTesting; the others are counted and left out.")
    static let unlabeledEnvironment = Option<AppStoreEnvironment>.choice(
        "unlabeled-environment", "ENV",
        help: "Read data that names no environment as ENV's (default: it is counted and left out).")
    static let grace = Option<TimeSpan>.duration(
        "grace", help: "Time the server gets after a notice to cut access (default 1h).", upTo: longestDuration)
    static let prematureWindow = Option<TimeSpan>.duration(
        "premature-window", help: "Cost this long before a grant starts is premature (default 2h).", upTo: longestDuration)
    static let currency = Option<CurrencyCode>(
        "currency", "CODE", help: "Report currency (default USD); other currencies convert with fx.csv.",
        expected: "a three-letter code like USD", convert: CurrencyCode.init(validating:))
    static let maxRejects = Option<Int>.count(
        "max-rejects", "N", help: "Rejected input lines tolerated before the run fails (default 0).")
    static let threads = Option<Int>.count(
        "threads", "N", help: "Threads reading files, 1 to 256 (default: one per core).", in: 1...maximumThreads)
    static let costColumn = Option<CostColumnMap.Rule>(
        "cost-column", "NAME=HEADER", help: "Read cost column NAME from header HEADER, e.g. cost=amount_usd. Repeatable.",
        repeatable: true,
        expected:
            "NAME=HEADER or GLOB:NAME=HEADER with NAME one of \(CostColumns.Name.allCases.map(\.rawValue).joined(separator: ", "))",
        convert: costColumnRule)
    static let costFormat = Option<CostColumnMap.FormatRule>(
        "cost-format", "[GLOB:]NAME",
        help:
            "Read cost files as an export: helicone, langfuse or openmeter (plain: this tool's own), e.g. 'helicone-*.csv:helicone'. Repeatable.",
        repeatable: true,
        expected: "NAME or GLOB:NAME with NAME one of \(CostFormat.allCases.map(\.rawValue).joined(separator: ", "))",
        convert: costFormatRule)
    static let usageField = Option<String>(
        "usage-field", "NAME", help: "The member of an OpenMeter event's data that holds the quantity (default value).",
        expected: "a member name of data"
    ) { $0.isEmpty ? nil : $0 }
    static let trustRoot = Option<[Certificate]>(
        "trust-root", "FILE", help: "Also trust this root certificate (DER or PEM) for signed data; for test data. Repeatable.",
        repeatable: true, takesPath: true, expected: "a readable certificate file, DER or PEM"
    ) { path in
        let certificates = (try? Certificate.load(path: path)) ?? []
        return certificates.isEmpty ? nil : certificates
    }
    static let bundleID = Option("bundle-id", "ID", help: "Refuse App Store data of any other bundle id.")
    static let appAppleID = Option<Int64>(
        "app-apple-id", "N", help: "Refuse App Store data of any other app id.", expected: "a whole number like 1234567890"
    ) { Int64($0).flatMap { $0 > 0 ? $0 : nil } }
    static let noVerify = Flag(
        "no-verify", help: "Read signed data without checking signatures (recorded in run.json and on the page).")
    static let verifiedFiles = Option.path(
        "verified-files", "FILE",
        help:
            "Remember files whose signatures verified here, so reruns skip them (default ~/.cache/refund-cost/verified-files.tsv; none: off)."
    )
    static let quiet = Flag("quiet", help: "No progress lines on stderr.")

    /// In milliunits: use at or above it leans DECLINE (report, respond, the distributed steps).
    static let heavyUse = Option<Int64>(
        "heavy-use", "PERCENT", help: "Consumption requests: use at or above this share leans DECLINE (default 50).",
        expected: "a whole percentage from 1 to 100"
    ) { Int64($0).flatMap { (1...100).contains($0) ? $0 * 1000 : nil } }

    static let chargebackFee = Option<Money>(
        "chargeback-fee", "AMOUNT",
        help: "What the bank charges for a Google Play chargeback, in the report currency (added to what one lost).",
        expected: "an amount like 15.00, not negative, with at most 6 decimals as every amount a report writes"
    ) { text in (try? Money.parse(text)).flatMap { $0.nanos >= 0 && $0.nanos % 1_000 == 0 ? $0 : nil } }

    /// The shared group, in the order the help pages list it, each with where its value goes:
    /// an option that changes a figure is one line here and its field in `RunConfiguration`.
    static let bindings: [Bound<DataOptions>] = [
        data.into(\.run.data),
        asOf.into(\.asOf),
        environment.into(\.run.appStore.environment),
        unlabeledEnvironment.into(\.run.appStore.unlabeledEnvironment),
        grace.into(\.run.configuration.grace),
        prematureWindow.into(\.run.appStore.prematureWindow),
        currency.into(\.run.appStore.currency),
        heavyUse.into(\.run.configuration.consumptionPolicy.heavyUse),
        chargebackFee.into(\.run.configuration.chargebackFee),
        maxRejects.into(\.run.maxRejects),
        threads.into(\.run.threads),
        costColumn.intoAll(\.run.configuration.costColumns.rules) { $0 },
        costFormat.intoAll(\.run.configuration.costColumns.formats) { $0 },
        usageField.into(\.run.configuration.costColumns.usageField),
        trustRoot.intoAll(\.run.appStore.extraTrustRoots) { $0.flatMap { $0.map(\.der) } },
        bundleID.into(\.run.appStore.bundleID),
        appAppleID.into(\.run.appStore.appAppleID),
        noVerify.into(\.run.appStore.verifySignatures, setting: false),
        verifiedFiles.into(\.run.verifiedFilesRecord) { $0 == "none" ? nil : $0 },
        quiet.into(\.quiet),
    ]

    static var specs: [OptionSpec] { bindings.map(\.spec) }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        run.threads = min(run.threads, Self.maximumThreads)
        run.verifiedFilesRecord = VerifiedFiles.defaultLocation
        for binding in Self.bindings { try binding.apply(arguments, &self) }
        guard !run.data.isEmpty else { throw .missingOption(Self.data.flag, command: arguments.command) }
        if let record = run.verifiedFilesRecord {
            try Self.checkOutside(record, option: Self.verifiedFiles, data: data, arguments: arguments)
        }
        trustRootFiles = arguments.texts(Self.trustRoot)
    }

    /// A `--data` folder that is not there is a usage error: a mistake on the command line.
    ///
    /// Each command checks it once its other options are read, so that their mistakes are
    /// said first.
    func checkFolder(_ arguments: ParsedArguments) throws(UsageError) {
        guard FileSystem.kind(data) != .directory else { return }
        throw arguments.invalid(
            Self.data,
            expected: "an existing folder of exports (costs/, notifications/, accounts.csv, ...): "
                + (FileSystem.kind(data) == .missing ? "there is none at this path" : "this is not a folder"))
    }

    /// `--cost-column NAME=HEADER` for every file, `--cost-column GLOB:NAME=HEADER` for the files
    /// whose name matches GLOB.
    private static func costColumnRule(_ pair: String) -> CostColumnMap.Rule? {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        var glob: String?
        var nameText = parts.first ?? ""
        if let colon = nameText.lastIndex(of: ":") {
            glob = String(nameText[..<colon])
            nameText = String(nameText[nameText.index(after: colon)...])
        }
        guard parts.count == 2, !parts[1].isEmpty, glob.map({ !$0.isEmpty }) ?? true,
            let name = CostColumns.Name(rawValue: nameText)
        else { return nil }
        return CostColumnMap.Rule(glob: glob, name: name, header: parts[1])
    }

    /// `--cost-format NAME` for every file, `--cost-format GLOB:NAME` for the files whose name
    /// matches GLOB.
    private static func costFormatRule(_ given: String) -> CostColumnMap.FormatRule? {
        var glob: String?
        var formatText = given
        if let colon = given.lastIndex(of: ":") {
            glob = String(given[..<colon])
            formatText = String(given[given.index(after: colon)...])
        }
        guard let format = CostFormat(rawValue: formatText), glob.map({ !$0.isEmpty }) ?? true else { return nil }
        return CostColumnMap.FormatRule(glob: glob, format: format)
    }

    /// The run these options ask for over `window`: its configuration (every option that
    /// changes a figure, `--as-of` or else `fallback` for its time) and how this machine runs it.
    func runOptions(window: ReportWindow, asOfDefault fallback: Timestamp, out: String = "") -> RunOptions {
        var options = run
        options.window = window
        options.asOf = asOf ?? fallback
        options.out = out
        return options
    }

    /// The run of a command without a window (`validate`, `explain`, `export-access`): all of
    /// time, as of `--as-of` or else everything.
    func runOptionsOverAllTime() -> RunOptions {
        runOptions(
            window: ReportWindow(start: .earliestAccepted, end: Self.everything, label: "all"),
            asOfDefault: Self.everything)
    }

    /// An output file may not lie inside `--data`: it would replace an input, or be read as one
    /// by the next run.
    static func checkOutside(_ path: String, option: Option<String>, data: String, arguments: ParsedArguments)
        throws(UsageError)
    {
        let resolved = FileSystem.resolvedPath(path)
        let folder = FileSystem.resolvedPath(data)
        guard resolved != folder, folder == "/" || !resolved.hasPrefix(folder + "/") else {
            throw arguments.invalid(
                option, text: path, expected: "a path outside --data \(data) (an output never goes among the inputs)")
        }
    }

    /// For commands without a window: every piece of data counts.
    static let everything = Timestamp.latestAccepted
}
