import Support

/// A command line the tool cannot follow; exit status 2.
enum UsageError: DiagnosticError {
    case unknownCommand(String, suggestion: String?)
    case unknownOption(String, command: String, suggestion: String?)
    case missingValue(String, command: String)
    case missingOption(String, command: String)
    case unexpectedArgument(String, command: String)
    case invalidValue(option: String, value: String, expected: String, command: String)
    /// Options that cannot go together as given: what is wrong and what to give instead.
    case needsAnother(String, command: String)

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
            // A value typed on the command line is quoted unless it may hold a password.
            case .unexpectedArgument(let argument, let command):
                "unexpected argument '\(HumanText.unlessSecret(argument))' (options start with --)" + hint(command)
            case .invalidValue(let option, let value, let expected, let command) where value == HumanText.notShown:
                "\(option) \(value): expected \(expected)" + hint(command)
            case .invalidValue(let option, let value, let expected, let command):
                "\(option) '\(HumanText.unlessSecret(value))': expected \(expected)" + hint(command)
            case .needsAnother(let message, let command):
                message + hint(command)
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
