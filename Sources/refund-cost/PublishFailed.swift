import Publish
import Support

/// A publish that changed nothing, with the reason.
struct PublishFailed: DiagnosticError {
    let diagnostic: Diagnostic
}
