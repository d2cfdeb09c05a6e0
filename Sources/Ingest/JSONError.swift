import Support

/// A JSON line that could not be decoded: which field, and why, in a sentence.
package struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    package var reason: String
    package var field: String

    package init(reason: String, field: String) {
        self.reason = reason
        self.field = field
    }

    package var description: String { field.isEmpty ? reason : "\(field): \(reason)" }

    /// The same error one level further out: `data` + `signedDate` = `data.signedDate`.
    package func within(_ outer: String) -> JSONError {
        let joined = field.isEmpty ? outer : field.hasPrefix("[") ? outer + field : outer + "." + field
        return JSONError(reason: reason, field: joined)
    }
}
