import Support

/// Why a call to Apple could not be made at all.
package enum APIError: DiagnosticError {
    case signing
    case client(String)

    package var diagnostic: Diagnostic {
        switch self {
        case .signing: Diagnostic("the in-app purchase key could not sign a token")
        case .client(let detail): Diagnostic("the HTTP client could not start: \(detail)")
        }
    }
}
