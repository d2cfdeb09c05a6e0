import Support

/// A run that stopped on an input it cannot use: what went wrong, and where the rejects found
/// so far went.
///
/// The previous report is untouched.
package struct ReportRunError: DiagnosticError {
    package var underlying: any Error
    package var destination: String
    package var rejectsFile: String?

    package var diagnostic: Diagnostic {
        var diagnostic = Diagnostic.of(underlying)
        if !diagnostic.message.hasSuffix("\n") { diagnostic.message += "\n" }
        diagnostic.message += "The previous report in \(destination)/, if any, is unchanged."
        if let rejectsFile { diagnostic.message += " The lines rejected so far are in \(rejectsFile)." }
        return diagnostic
    }
}
