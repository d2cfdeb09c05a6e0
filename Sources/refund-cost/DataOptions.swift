import Ingest
import Pipeline
import Support

/// The options every command that reads `--data` takes (docs/contract.md, Common options), parsed
/// once into types and checked against ranges that make sense, so no command sees text.
struct DataOptions {
    var data: String
    /// Nil when not given: each command has its own default (a report's window end, else everything).
    var asOf: Timestamp?
    var environment: AppStoreEnvironment = .production
    /// Where notifications that name no environment belong; nil: left out of every run.
    var unlabeledEnvironment: AppStoreEnvironment?
    var grace: TimeSpan = .hours(1)
    var prematureWindow: TimeSpan = .hours(2)
    var currency: CurrencyCode = .usd
    var maxRejects = 0
    var threads = FileSystem.processorCount
    var costColumns: CostColumnMap = [:]
    var quiet = false
    /// `--trust-root` certificates as DER, one per certificate in the files named.
    var trustRoots: [[UInt8]] = []
    var trustRootFiles: [String] = []
    var verifySignatures = true
    var bundleID: String?
    var appAppleID: Int64?
    var verifiedFilesRecord = VerifiedFiles.defaultLocation

    /// The longest grace or premature window accepted: a year is already far beyond any use.
    static let longestDuration = TimeSpan.days(366)
    static let maximumThreads = 256

    /// A command's options with the shared group inserted by name: `--data` first, the
    /// command's own next, the other shared options, then `--help`; no command places them by
    /// position, so none can drop or misplace one.
    static func around(_ own: [OptionSpec]) -> [OptionSpec] {
        specs.filter { $0.name == "data" } + own + specs.filter { $0.name != "data" } + [CommonOptions.help]
    }

    static let specs: [OptionSpec] = [
        OptionSpec(name: "data", value: "DIR", help: "The input folder (costs/, notifications/, accounts.csv, ...)."),
        OptionSpec(
            name: "as-of", value: "TIME",
            help: "Ignore data Apple signed after TIME (default: the window's end; other commands: everything)."),
        OptionSpec(
            name: "environment", value: "ENV",
            help: "Production (default), Sandbox, Xcode or LocalTesting; the others are counted and left out."),
        OptionSpec(
            name: "unlabeled-environment", value: "ENV",
            help: "Read data that names no environment as ENV's (default: it is counted and left out)."),
        OptionSpec(name: "grace", value: "DURATION", help: "Time the server gets after a notice to cut access (default 1h)."),
        OptionSpec(
            name: "premature-window", value: "DURATION", help: "Cost this long before a grant starts is premature (default 2h)."),
        OptionSpec(name: "currency", value: "CODE", help: "Report currency (default USD); other currencies convert with fx.csv."),
        OptionSpec(name: "max-rejects", value: "N", help: "Rejected input lines tolerated before the run fails (default 0)."),
        OptionSpec(name: "threads", value: "N", help: "Threads reading files, 1 to 256 (default: one per core)."),
        OptionSpec(
            name: "cost-column", value: "NAME=HEADER",
            help: "Read cost column NAME from header HEADER, e.g. cost=amount_usd. Repeatable.", repeatable: true),
        OptionSpec(
            name: "cost-format", value: "[GLOB:]NAME",
            help:
                "Read cost files as an export: helicone, langfuse or openmeter (plain: this tool's own), e.g. 'helicone-*.csv:helicone'. Repeatable.",
            repeatable: true),
        OptionSpec(
            name: "usage-field", value: "NAME",
            help: "The member of an OpenMeter event's data that holds the quantity (default value)."),
        OptionSpec(
            name: "trust-root", value: "FILE",
            help: "Also trust this root certificate (DER or PEM) for signed data; for test data. Repeatable.", repeatable: true),
        OptionSpec(name: "bundle-id", value: "ID", help: "Refuse App Store data of any other bundle id."),
        OptionSpec(name: "app-apple-id", value: "N", help: "Refuse App Store data of any other app id."),
        OptionSpec(
            name: "no-verify", value: nil,
            help: "Read signed data without checking signatures (recorded in run.json and on the page)."),
        OptionSpec(
            name: "verified-files", value: "FILE",
            help:
                "Remember files whose signatures verified here, so reruns skip them (default ~/.cache/refund-cost/verified-files.tsv; none: off)."
        ),
        OptionSpec(name: "quiet", value: nil, help: "No progress lines on stderr."),
    ]

    init(_ arguments: ParsedArguments, command: String) throws(UsageError) {
        data = try arguments.required("data", command: command)
        asOf = try arguments.timestamp("as-of", command: command)
        environment = try arguments.environment(command: command)
        if let text = arguments.value("unlabeled-environment") {
            guard let parsed = AppStoreEnvironment(rawValue: text) else {
                let names = AppStoreEnvironment.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidValue(option: "--unlabeled-environment", value: text, expected: "one of \(names)", command: command)
            }
            unlabeledEnvironment = parsed
        }
        grace = try arguments.duration("grace", default: grace, upTo: Self.longestDuration, command: command)
        prematureWindow = try arguments.duration(
            "premature-window", default: prematureWindow, upTo: Self.longestDuration, command: command)
        currency = try arguments.currency(command: command)
        maxRejects = try arguments.count("max-rejects", default: 0, command: command)
        if let text = arguments.value("threads") {
            guard let count = Int(text), (1...Self.maximumThreads).contains(count) else {
                throw .invalidValue(option: "--threads", value: text, expected: "a whole number from 1 to 256", command: command)
            }
            threads = count
        } else {
            threads = min(threads, Self.maximumThreads)
        }
        costColumns = try arguments.costColumnMapping(command: command)
        if let field = arguments.value("usage-field") {
            guard !field.isEmpty else {
                throw .invalidValue(option: "--usage-field", value: field, expected: "a member name of data", command: command)
            }
            costColumns.usageField = field
        }
        quiet = arguments.has("quiet")
        verifySignatures = !arguments.has("no-verify")
        if let record = arguments.value("verified-files") { verifiedFilesRecord = record == "none" ? nil : record }
        if let record = verifiedFilesRecord {
            try Self.checkOutside(record, option: "--verified-files", data: data, command: command)
        }
        bundleID = arguments.value("bundle-id")
        if let text = arguments.value("app-apple-id") {
            guard let id = Int64(text), id > 0 else {
                throw .invalidValue(
                    option: "--app-apple-id", value: text, expected: "a whole number like 1234567890", command: command)
            }
            appAppleID = id
        }
        for path in arguments.all("trust-root") {
            let certificates = (try? Certificate.load(path: path)) ?? []
            guard !certificates.isEmpty else {
                throw .invalidValue(
                    option: "--trust-root", value: path, expected: "a readable certificate file, DER or PEM", command: command)
            }
            trustRoots += certificates.map(\.der)
            trustRootFiles.append(path)
        }
    }

    /// What the ledger is built with, as of `asOf` or else `fallback`.
    func ledgerOptions(asOfDefault fallback: Timestamp) -> LedgerLoad.Options {
        var options = LedgerLoad.Options(asOf: asOf ?? fallback)
        options.environment = environment
        options.unlabeledEnvironment = unlabeledEnvironment
        options.prematureWindow = prematureWindow
        options.currency = currency
        options.extraTrustRoots = trustRoots
        options.verifySignatures = verifySignatures
        options.bundleID = bundleID
        options.appAppleID = appAppleID
        options.verifiedFilesRecord = verifiedFilesRecord
        return options
    }

    /// An output file may not lie inside `--data`: it would replace an input, or be read as one
    /// by the next run.
    static func checkOutside(_ path: String, option: String, data: String, command: String) throws(UsageError) {
        let resolved = FileSystem.resolvedPath(path)
        let folder = FileSystem.resolvedPath(data)
        guard resolved != folder, folder == "/" || !resolved.hasPrefix(folder + "/") else {
            throw .invalidValue(
                option: option, value: path, expected: "a path outside --data \(data) (an output never goes among the inputs)",
                command: command)
        }
    }

    /// For commands without a window: every piece of data counts.
    static let everything = Timestamp.latestAccepted
}
