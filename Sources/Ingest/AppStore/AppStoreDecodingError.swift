import Support

/// Why one line (or one element of a page) of App Store data was refused: the field and a
/// reason a person can act on.
package struct AppStoreDecodingError: Error, Sendable, Hashable {
    package var field: String
    package var reason: String

    init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// Maps what the JSON cursor or the JWS decoder threw.
    init(_ error: any Error) {
        switch error {
        case let json as JSONError:
            // A signed payload's fields read as if it had arrived decoded: data.signedTransactionInfo.price.
            let prefix = "signedPayload."
            field = json.field.hasPrefix(prefix) ? String(json.field.dropFirst(prefix.count)) : json.field
            reason = json.reason
        case let jws as JWSError:
            field = ""
            reason = jws.description
        case let decoding as AppStoreDecodingError:
            self = decoding
        default:
            field = ""
            reason = "\(error)"
        }
    }

    /// The same error inside an element of a page: `notificationHistory[3]` + `data.price`.
    func within(_ outer: String) -> AppStoreDecodingError {
        AppStoreDecodingError(field: field.isEmpty ? outer : outer + "." + field, reason: reason)
    }
}
