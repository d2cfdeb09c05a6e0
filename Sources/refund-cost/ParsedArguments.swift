import Attribution
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic

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
