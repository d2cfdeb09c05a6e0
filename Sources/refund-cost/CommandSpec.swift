/// One option a subcommand accepts.
struct OptionSpec {
    var name: String
    /// Placeholder for the value (`DIR`, `N`); nil for a flag.
    var value: String?
    var help: String
    var repeatable = false
    /// Its value is a path: an empty one is refused (it would mean the current folder, or put a
    /// report at the filesystem root).
    var takesPath = false
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

/// The help option every command has.
enum CommonOptions {
    static let help = OptionSpec(name: "help", value: nil, help: "Show this help.")
}
