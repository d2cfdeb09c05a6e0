import Support

/// Problems with a notification or history file as a whole.
enum AppStoreInputError: DiagnosticError, Sendable, Hashable {
    case missingColumn(file: String, column: String, present: [String])
    case repeatedColumn(file: String, column: String)

    /// What is wrong with the header, for a reject of line 1.
    package var reason: String {
        switch self {
        case .missingColumn(_, let column, let present):
            "no '\(column)' column (header has: \(present.joined(separator: ", "))); a notification CSV needs signed_payload and may have received_at"
        case .repeatedColumn(_, let column):
            "the header names '\(column)' twice; which column to read is not clear, so the file is not read"
        }
    }

    package var diagnostic: Diagnostic {
        switch self {
        case .missingColumn(let file, _, _), .repeatedColumn(let file, _): Diagnostic(reason, file: file, line: 1)
        }
    }
}
