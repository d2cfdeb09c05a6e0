import Ingest
import Support

/// Who calls Google's Play Developer API: a service account's key file, as the Google Cloud
/// console gives it (JSON: `type`, `client_email`, `private_key_id`, `private_key`, `token_uri`).
///
/// It signs a JWT (RS256) that Google's token endpoint exchanges for an access token; the key,
/// the JWT and the token are never in any value printed or written.
package struct ServiceAccount {
    package var clientEmail: String
    package var keyID: String?
    package var key: RSAPrivateKey

    /// What the access token may do: the Play Developer API, nothing else.
    package static let scope = "https://www.googleapis.com/auth/androidpublisher"
    /// Google's token endpoint, the one place a signed assertion is sent (or `--api-url`'s in tests).
    package static let tokenURL = "https://oauth2.googleapis.com/token"
    /// The largest key file read: a service account's is about 2.4 KB.
    package static let largestFile = 16 * 1024
    /// How long an assertion is valid: Google takes at most an hour.
    static let lifetimeSeconds: Int64 = 3600

    /// Reads a key file's bytes; the error says what is wrong with it, never what it holds.
    package static func read(_ bytes: [UInt8]) -> Result<ServiceAccount, ServiceAccountError> {
        var type: String?
        var email: String?
        var keyID: String?
        var pem: String?
        var tokenURI: String?
        do {
            try bytes.withUnsafeBytes { raw in
                var cursor = JSONCursor(raw)
                try cursor.members { cursor, key in
                    if key == "type" {
                        type = try cursor.optionalString()
                    } else if key == "client_email" {
                        email = try cursor.optionalString()
                    } else if key == "private_key_id" {
                        keyID = try cursor.optionalString()
                    } else if key == "private_key" {
                        pem = try cursor.optionalString()
                    } else if key == "token_uri" {
                        tokenURI = try cursor.optionalString()
                    } else {
                        try cursor.skip()
                    }
                }
                try cursor.finish()
            }
        } catch {
            return .failure(.notJSON)
        }
        guard type == "service_account" else { return .failure(.notAServiceAccount(type)) }
        guard let email, !email.isEmpty else { return .failure(.missing("client_email")) }
        guard let pem, !pem.isEmpty else { return .failure(.missing("private_key")) }
        if let tokenURI, tokenURI != tokenURL { return .failure(.otherTokenEndpoint(tokenURI)) }
        guard let key = RSAPrivateKey(pem: Array(pem.utf8)) else { return .failure(.notAnRSAKey) }
        return .success(ServiceAccount(clientEmail: email, keyID: keyID?.isEmpty == true ? nil : keyID, key: key))
    }

    /// A signed assertion for the token endpoint at `audience`, issued at `now`.
    package func assertion(now: Timestamp, audience: String) throws(PlayAPIError) -> String {
        let signingInput =
            Base64URL.encode(Array(header.compact.utf8)) + "."
            + Base64URL.encode(Array(claims(issuedAt: now.milliseconds / 1000, audience: audience).compact.utf8))
        guard let signature = key.signRS256(Array(signingInput.utf8)) else { throw .signing }
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// The header and claims an assertion carries (for `--dry-run`, which never prints one).
    package func describeAssertion(now: Timestamp, audience: String) -> String {
        "JWT header \(header.compact), claims \(claims(issuedAt: now.milliseconds / 1000, audience: audience).compact)"
    }

    private var header: JSONValue {
        var members: [(String, JSONValue)] = [("alg", .string("RS256")), ("typ", .string("JWT"))]
        if let keyID { members.append(("kid", .string(keyID))) }
        return .object(members)
    }

    private func claims(issuedAt issued: Int64, audience: String) -> JSONValue {
        .object([
            ("iss", .string(clientEmail)), ("scope", .string(Self.scope)), ("aud", .string(audience)),
            ("iat", .integer(issued)), ("exp", .integer(issued + Self.lifetimeSeconds)),
        ])
    }
}

/// Why a key file is not a service account's key.
package enum ServiceAccountError: Error, Sendable, CustomStringConvertible {
    case notJSON
    case notAServiceAccount(String?)
    case missing(String)
    case otherTokenEndpoint(String)
    case notAnRSAKey

    package var description: String {
        switch self {
        case .notJSON: "not JSON: a service account's key file is the JSON the Google Cloud console gives"
        case .notAServiceAccount(let type):
            "its type is \(type.map { "'\(Reject.cut($0))'" } ?? "missing"), not 'service_account': a service account's key file is needed"
        case .missing(let field): "it has no \(field)"
        case .otherTokenEndpoint(let uri):
            "its token_uri is \(Reject.cut(uri)), not Google's \(ServiceAccount.tokenURL): the signed assertion goes to Google only"
        case .notAnRSAKey: "its private_key is not an RSA private key of 2048 bits or more in PEM"
        }
    }
}

/// Why a call to Google could not be made at all.
package enum PlayAPIError: DiagnosticError {
    case signing
    case client(String)

    package var diagnostic: Diagnostic {
        switch self {
        case .signing: Diagnostic("the service account's key could not sign an assertion")
        case .client(let detail): Diagnostic("the HTTP client could not start: \(detail)")
        }
    }
}
