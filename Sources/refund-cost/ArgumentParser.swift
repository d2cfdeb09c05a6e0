import Support

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
            if option.takesPath, value.trimmingSpaces.isEmpty {
                // An empty path would mean the current folder, or put a report at the filesystem root.
                throw .invalidValue(
                    option: "--" + name, value: value, expected: "a path (\(option.value ?? "")), not an empty value",
                    command: command.name)
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
