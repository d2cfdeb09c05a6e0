import Support

/// Sums of cost beyond what money can hold, found when the parts of the reading are added up.
package struct CostSumError: DiagnosticError {
    package var file: String?
    package var underlying: any Error

    package init(file: String?, underlying: any Error) {
        self.file = file
        self.underlying = underlying
    }

    package var diagnostic: Diagnostic {
        Diagnostic(
            "the cost read in \(file == nil ? "all files" : "this file"), in one currency or one class, is beyond what the tool "
                + "can hold (\(underlying)); check the amounts, or report a shorter window", file: file)
    }
}
