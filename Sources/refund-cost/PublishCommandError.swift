import Publish
import Support

/// A publish that changed nothing, with the reason.
struct PublishCommandError: DiagnosticError {
    let diagnostic: Diagnostic
}
