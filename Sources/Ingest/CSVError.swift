internal import CLibCSV
import Support

/// Why a CSV file could not be read as CSV at all.
package enum CSVError: DiagnosticError, Sendable, Hashable {
    case malformed(file: String, line: Int, detail: String)
    case notUTF8(file: String)

    package var diagnostic: Diagnostic {
        switch self {
        case .malformed(let file, let line, let detail): Diagnostic("malformed CSV: " + detail, file: file, line: line)
        case .notUTF8(let file): Diagnostic(TextEncodingCheck.utf16Reason, file: file, line: 1)
        }
    }
}
