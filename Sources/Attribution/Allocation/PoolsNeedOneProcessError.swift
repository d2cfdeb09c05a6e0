import Support

/// A FOCUS bill is spread over every usage row of the data at once, which a partial of some
/// files cannot do.
package struct PoolsNeedOneProcessError: DiagnosticError {
    package var file: String

    package init(file: String) {
        self.file = file
    }

    package var diagnostic: Diagnostic {
        Diagnostic(
            "a FOCUS bill is allocated over all usage rows at once, so it cannot be split into partials; "
                + "run `refund-cost report` on the data, or give the partials per-account cost rows", file: file, line: 1)
    }
}
