import Attribution
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic

/// One option a subcommand accepts.
struct OptionSpec {
    var name: String
    /// Placeholder for the value (`DIR`, `N`); nil for a flag.
    var value: String?
    var help: String
    var repeatable = false
}

/// What a subcommand accepts and how its help page reads.
struct CommandSpec {
    var name: String
    var summary: String
    var usage: String
    var options: [OptionSpec]
    var discussion: String
    var examples: [String]
}

/// The options given on the command line, by name (without the leading dashes).
struct ParsedArguments {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { flags.contains(name) }

    func required(_ name: String, command: String) throws(UsageError) -> String {
        guard let value = value(name) else { throw .missingOption("--" + name, command: command) }
        return value
    }
}

/// A command line the tool cannot follow; exit status 2.
enum UsageError: DiagnosticError {
    case unknownCommand(String, suggestion: String?)
    case unknownOption(String, command: String, suggestion: String?)
    case missingValue(String, command: String)
    case missingOption(String, command: String)
    case unexpectedArgument(String, command: String)
    case invalidValue(option: String, value: String, expected: String, command: String)

    var diagnostic: Diagnostic {
        let message =
            switch self {
            case .unknownCommand(let name, let suggestion):
                "unknown command '\(name)'" + didYouMean(suggestion) + "\nRun 'refund-cost --help' to see the commands."
            case .unknownOption(let option, let command, let suggestion):
                "unknown option '\(option)' for '\(command)'" + didYouMean(suggestion) + hint(command)
            case .missingValue(let option, let command):
                "\(option) needs a value" + hint(command)
            case .missingOption(let option, let command):
                "\(command) needs \(option)" + hint(command)
            case .unexpectedArgument(let argument, let command):
                "unexpected argument '\(argument)' (options start with --)" + hint(command)
            case .invalidValue(let option, let value, let expected, let command):
                "\(option) '\(value)': expected \(expected)" + hint(command)
            }
        return Diagnostic(message)
    }

    private func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }

    private func hint(_ command: String) -> String {
        "\nRun 'refund-cost \(command) --help' for usage."
    }
}

enum ArgumentParser {
    /// Parses `--name value`, `--name=value` and `--flag` against the command's options.
    static func parse(_ arguments: [String], for command: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw .unexpectedArgument(argument, command: command.name)
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = command.options.first(where: { $0.name == name }) else {
                let suggestion = closest(to: name, among: command.options.map(\.name)).map { "--" + $0 }
                throw .unknownOption("--" + name, command: command.name, suggestion: suggestion)
            }
            if option.value == nil {
                if inlineValue != nil {
                    throw .invalidValue(
                        option: "--" + name, value: inlineValue ?? "", expected: "no value (it is a flag)", command: command.name)
                }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw .missingValue("--" + name, command: command.name)
                }
                value = arguments[index]
                index += 1
            }
            if let kind = option.value, kind.contains("DIR") || kind.contains("FILE"), value.trimmingSpaces.isEmpty {
                // An empty path would mean the current folder, or put a report at the filesystem root.
                throw .invalidValue(
                    option: "--" + name, value: value, expected: "a path (\(kind)), not an empty value", command: command.name)
            }
            if option.repeatable {
                parsed.values[name, default: []].append(value)
            } else {
                parsed.values[name] = [value]
            }
        }
        return parsed
    }

    /// The candidate within two edits of `word`, if exactly one is nearest.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(Array(word.utf8), Array($0.utf8))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension ParsedArguments {
    /// Reads `--NAME` as a count: a whole number from 0 to a billion.
    func count(_ name: String, default fallback: Int, command: String) throws(UsageError) -> Int {
        guard let text = value(name) else { return fallback }
        guard let number = Int(text), (0...1_000_000_000).contains(number) else {
            throw .invalidValue(
                option: "--" + name, value: text, expected: "a whole number from 0 to 1000000000", command: command)
        }
        return number
    }

    /// Reads `--NAME` as a duration no longer than `limit`.
    func duration(_ name: String, default fallback: TimeSpan, upTo limit: TimeSpan, command: String) throws(UsageError)
        -> TimeSpan
    {
        guard let text = value(name) else { return fallback }
        guard let duration = TimeSpan(parsing: text), duration <= limit else {
            throw .invalidValue(
                option: "--" + name, value: text, expected: "a duration like 90s, 15m, 1h or 2d, at most \(limit)",
                command: command)
        }
        return duration
    }

    /// Reads `--NAME` as a time: any input form, or a date meaning its midnight UTC, from 1970 to 2200.
    func timestamp(_ name: String, command: String) throws(UsageError) -> Timestamp? {
        guard let text = value(name) else { return nil }
        let parsed = TimestampParser.parse(text) ?? TimestampParser.parseDate(text)?.start
        guard let parsed, parsed.isInAcceptedRange else {
            throw .invalidValue(
                option: "--" + name, value: text,
                expected: "a time like 2026-11-01T00:00:00Z or a date like 2026-11-01, between 1970 and 2200", command: command)
        }
        return parsed
    }

    func environment(command: String) throws(UsageError) -> AppStoreEnvironment {
        guard let text = value("environment") else { return .production }
        guard let environment = AppStoreEnvironment(rawValue: text) else {
            let names = AppStoreEnvironment.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidValue(option: "--environment", value: text, expected: "one of \(names)", command: command)
        }
        return environment
    }

    func currency(command: String) throws(UsageError) -> CurrencyCode {
        guard let code = value("currency") else { return .usd }
        guard let currency = CurrencyCode(validating: code) else {
            throw .invalidValue(option: "--currency", value: code, expected: "a three-letter code like USD", command: command)
        }
        return currency
    }

    /// Which header holds each cost column.
    ///
    /// `--cost-column NAME=HEADER` for every file, `--cost-column GLOB:NAME=HEADER` for the
    /// files whose name matches GLOB.
    func costColumnMapping(command: String) throws(UsageError) -> CostColumnMap {
        var map = CostColumnMap(rules: [])
        for pair in all("cost-column") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let names = CostColumns.Name.allCases.map(\.rawValue)
            var glob: String?
            var nameText = parts.first ?? ""
            if let colon = nameText.lastIndex(of: ":") {
                glob = String(nameText[..<colon])
                nameText = String(nameText[nameText.index(after: colon)...])
            }
            guard parts.count == 2, !parts[1].isEmpty, glob.map({ !$0.isEmpty }) ?? true,
                let name = CostColumns.Name(rawValue: nameText)
            else {
                throw .invalidValue(
                    option: "--cost-column", value: pair,
                    expected: "NAME=HEADER or GLOB:NAME=HEADER with NAME one of \(names.joined(separator: ", "))",
                    command: command)
            }
            map.rules.append(CostColumnMap.Rule(glob: glob, name: name, header: parts[1]))
        }
        for given in all("cost-format") {
            var glob: String?
            var formatText = given
            if let colon = given.lastIndex(of: ":") {
                glob = String(given[..<colon])
                formatText = String(given[given.index(after: colon)...])
            }
            guard let format = CostFormat(rawValue: formatText), glob.map({ !$0.isEmpty }) ?? true else {
                let names = CostFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidValue(
                    option: "--cost-format", value: given, expected: "NAME or GLOB:NAME with NAME one of \(names)",
                    command: command)
            }
            map.formats.append(CostColumnMap.FormatRule(glob: glob, format: format))
        }
        return map
    }
}

/// The help option every command has.
enum CommonOptions {
    static let help = OptionSpec(name: "help", value: nil, help: "Show this help.")
}
