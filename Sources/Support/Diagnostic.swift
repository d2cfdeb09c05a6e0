/// What stopped a command, or what it says and goes on: the one place an error or a warning
/// is put into words for a person.
///
/// An error is rendered the way compilers write theirs, `path:line: error: message` (`path:
/// error: ...` for a file as a whole, `error: ...` for what no file is to blame for), so an
/// editor or a terminal jumps to the line. A warning starts `warning:` (docs/contract.md), its
/// place after it. The stage errors carry one instead of formatting themselves; the stages
/// collect warnings as diagnostics, and each command prints them in one place.
package struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    enum Severity: String, Sendable, Hashable {
        /// The command stopped for it.
        case error
        /// The command went on; the person should know.
        case warning
    }

    var severity = Severity.error
    /// The file to blame; nil when it is not one file (an option, a database, the network).
    package var file: String?
    /// The line in `file`, from 1; 0 for the file as a whole.
    package var line: Int
    /// What is wrong and, where one helps, what to do about it.
    package var message: String
    /// Lines shown before the error: what led to it (the first rejected lines).
    package var context: [String] = []
    /// Lines shown after it: what it left out (the files refused whole).
    package var notes: [String] = []

    package init(_ message: String, file: String? = nil, line: Int = 0, context: [String] = [], notes: [String] = []) {
        self.message = message
        self.file = file
        self.line = line
        self.context = context
        self.notes = notes
    }

    /// What a run says and does not stop for, with the place it is about when there is one.
    package static func warning(_ message: String, file: String? = nil, line: Int = 0) -> Diagnostic {
        var diagnostic = Diagnostic(message, file: file, line: line)
        diagnostic.severity = .warning
        return diagnostic
    }

    /// What any error says, as a diagnostic: its own when it has one, else its text.
    package static func of(_ error: any Error) -> Diagnostic {
        switch error {
        case let error as any DiagnosticError: error.diagnostic
        case let error as SystemError: error.diagnostic
        default: Diagnostic("\(error)")
        }
    }

    /// The file (and line): a path, shown whole on its line, a line break in it escaped.
    package var location: String? {
        guard let file else { return nil }
        let shown = Reject.printable(file)
        return line > 0 ? "\(shown):\(line)" : shown
    }

    /// What is printed: a path or value quoted in it (a file named by whoever can write a
    /// shared folder) cannot move a terminal's cursor or color it; its own line breaks stay.
    package var description: String {
        let said =
            switch severity {
            case .error: location.map { "\($0): error: \(message)" } ?? "error: " + message
            case .warning: "warning: " + (location.map { "\($0): " } ?? "") + message
            }
        return (context + [said] + notes).joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .map { Reject.printable(String($0)) }.joined(separator: "\n")
    }
}

/// An error the tool stops for: what it says is its diagnostic's rendering, and nothing else.
package protocol DiagnosticError: Error, CustomStringConvertible {
    var diagnostic: Diagnostic { get }
}

extension DiagnosticError {
    package var description: String { diagnostic.description }
}
