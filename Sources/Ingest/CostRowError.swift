import Support

/// A sum that left the range money can hold, or a conversion that could not be made, at one
/// cost row: the run stops and says where.
struct CostRowError: DiagnosticError {
    package var file: String
    package var line: Int
    package var underlying: any Error

    package var diagnostic: Diagnostic {
        var detail = (underlying as? ConversionError)?.reason ?? "\(underlying)"
        if underlying is MoneyError {
            detail = "the cost read so far in this currency, with this row, is beyond what the tool can hold (\(detail))"
        }
        return Diagnostic(detail, file: file, line: line)
    }
}
