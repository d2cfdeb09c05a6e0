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

/// The options given on the command line, read through their declarations (`Option`, `Flag`).
struct ParsedArguments {
    /// The command they were given to, for errors.
    var command: String
    /// The names the command declares: reading any other is a mistake in the command.
    var declared: Set<String>
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    init(command: String, declared: Set<String>) {
        self.command = command
        self.declared = declared
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
        var parsed = ParsedArguments(command: command.name, declared: Set(command.options.map(\.name)))
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

/// The help option every command has.
enum CommonOptions {
    static let help = OptionSpec(name: "help", value: nil, help: "Show this help.")
}
