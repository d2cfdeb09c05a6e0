import Ingest
import Support

/// An option that takes a value, declared once as a typed constant of its command or group.
///
/// `ReportCommand.month`, `DataOptions.currency`: its name, placeholder and help for the help
/// page, and how its text becomes a value. A command reads it with `arguments.value(Self.month)`
/// and gets a `Value` or a usage error naming the option and what it expects; no command spells
/// an option's name a second time.
struct Option<Value>: Sendable {
    let spec: OptionSpec
    /// What a valid value looks like, for the error when `convert` refuses the text.
    let expected: String
    /// The value the text stands for; nil when it is not a valid one.
    let convert: @Sendable (String) -> Value?

    init(
        _ name: String, _ placeholder: String, help: String, repeatable: Bool = false, takesPath: Bool = false,
        expected: String, convert: @escaping @Sendable (String) -> Value?
    ) {
        spec = OptionSpec(name: name, value: placeholder, help: help, repeatable: repeatable, takesPath: takesPath)
        self.expected = expected
        self.convert = convert
    }

    /// `--name` as it is written on the command line.
    var flag: String { "--" + spec.name }
}

extension Option where Value == String {
    /// Any text (an id, a URL checked later).
    init(_ name: String, _ placeholder: String, help: String, repeatable: Bool = false) {
        self.init(name, placeholder, help: help, repeatable: repeatable, expected: "a value") { $0 }
    }

    /// A path to a file or a folder (`FILE`, `DIR`): never empty.
    static func path(_ name: String, _ placeholder: String, help: String, repeatable: Bool = false) -> Option {
        // Without its trailing slashes: `link/` names what the link points to, and a path is
        // checked for links as it is named (`--state link/` is the link, refused as one).
        Option(name, placeholder, help: help, repeatable: repeatable, takesPath: true, expected: "a path") { text in
            guard !text.trimmingSpaces.isEmpty else { return nil }
            var path = Substring(text)
            while path.count > 1, path.hasSuffix("/") { path.removeLast() }
            return String(path)
        }
    }
}

extension Option where Value == Int {
    /// A whole number in `range`.
    static func count(_ name: String, _ placeholder: String, help: String, in range: ClosedRange<Int> = 0...1_000_000_000)
        -> Option
    {
        Option(name, placeholder, help: help, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)") {
            Int($0).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}

extension Option where Value == TimeSpan {
    /// A duration like 90s, 15m, 1h or 2d, no longer than `limit`.
    static func duration(_ name: String, help: String, upTo limit: TimeSpan) -> Option {
        Option(name, "DURATION", help: help, expected: "a duration like 90s, 15m, 1h or 2d, at most \(limit)") {
            TimeSpan(parsing: $0).flatMap { $0 <= limit ? $0 : nil }
        }
    }
}

extension Option where Value == Timestamp {
    /// A time in any input form, or a date meaning its midnight UTC, from 1970 to 2200.
    static func time(_ name: String, _ placeholder: String = "TIME", help: String) -> Option {
        Option(
            name, placeholder, help: help,
            expected: "a time like 2026-11-01T00:00:00Z or a date like 2026-11-01, between 1970 and 2200"
        ) { text in
            guard let parsed = TimestampParser.parse(text) ?? TimestampParser.parseDate(text)?.start else { return nil }
            return parsed.isInAcceptedRange ? parsed : nil
        }
    }
}

extension Option where Value: CaseIterable & RawRepresentable & Sendable, Value.RawValue == String {
    /// One of the cases, spelled as their raw values.
    static func choice(_ name: String, _ placeholder: String, help: String) -> Option {
        let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
        // The cases by name, looked up by the conversion (which must not capture the type itself).
        let cases = Dictionary(Value.allCases.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
        return Option(name, placeholder, help: help, expected: "one of \(names)") { cases[$0] }
    }
}

/// An option without a value, declared once like `Option`: read with `arguments.isSet(Self.quiet)`.
struct Flag: Sendable {
    let spec: OptionSpec

    init(_ name: String, help: String) {
        spec = OptionSpec(name: name, value: nil, help: help)
    }
}

extension ParsedArguments {
    /// The value of `option`, or nil when it is not given; a text it cannot convert is a usage
    /// error naming the option, the text and what it expects.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        guard let text = text(option) else { return nil }
        guard let value = option.convert(text) else { throw invalid(option, expected: option.expected) }
        return value
    }

    /// The value of `option`, which the command cannot run without.
    func required<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        guard let value = try value(option) else { throw .missingOption(option.flag, command: command) }
        return value
    }

    /// Every value of a repeatable option, in the order given.
    func values<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
        var values: [Value] = []
        for text in texts(option) {
            guard let value = option.convert(text) else { throw invalid(option, text: text, expected: option.expected) }
            values.append(value)
        }
        return values
    }

    func isSet(_ flag: Flag) -> Bool {
        checkDeclared(flag.spec)
        return flags.contains(flag.spec.name)
    }

    /// The text given for `option`, as typed (the last one when given twice).
    func text<Value>(_ option: Option<Value>) -> String? { texts(option).last }

    /// A usage error about the value given for `option`: what it should have been instead.
    func invalid<Value>(_ option: Option<Value>, text: String? = nil, expected: String) -> UsageError {
        .invalidValue(option: option.flag, value: text ?? self.text(option) ?? "", expected: expected, command: command)
    }

    /// Every text given for `option`, as typed.
    func texts<Value>(_ option: Option<Value>) -> [String] {
        checkDeclared(option.spec)
        return values[option.spec.name] ?? []
    }

    /// An option read but not in the command's list could never be given: a mistake in the
    /// command, caught by the first run of it.
    private func checkDeclared(_ spec: OptionSpec) {
        precondition(declared.contains(spec.name), "\(command) reads --\(spec.name) without declaring it")
    }
}
