import Ingest
import Support

/// Who calls the App Store Server API: the in-app purchase key and its ids from App Store
/// Connect, and the app's bundle id.
package struct APICredentials {
    package var key: ECPrivateKey
    package var keyID: String
    package var issuerID: String
    package var bundleID: String

    package init(key: ECPrivateKey, keyID: String, issuerID: String, bundleID: String) {
        self.key = key
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
    }

    /// A fresh ES256 JWT for one request, valid five minutes from `now` (Apple refuses more
    /// than 60): header `alg`, `kid`, `typ`; claims `iss`, `iat`, `exp`, `aud`, `bid`.
    package func token(now: Timestamp) throws(APIError) -> String {
        let issued = now.milliseconds / 1000
        let header = JSONValue.object([("alg", .string("ES256")), ("kid", .string(keyID)), ("typ", .string("JWT"))])
        let encodedHeader = Base64URL.encode(Array(header.compact.utf8))
        let encodedClaims = Base64URL.encode(Array(claims(issuedAt: issued).compact.utf8))
        let signingInput = encodedHeader + "." + encodedClaims
        guard let signature = key.signES256(Array(signingInput.utf8)) else { throw .signing }
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// The header and claims a token for `now` carries (for `--dry-run`, which never prints a token).
    package func describeToken(now: Timestamp) -> String {
        let header = JSONValue.object([("alg", .string("ES256")), ("kid", .string(keyID)), ("typ", .string("JWT"))])
        return "JWT header \(header.compact), claims \(claims(issuedAt: now.milliseconds / 1000).compact)"
    }

    private func claims(issuedAt issued: Int64) -> JSONValue {
        .object([
            ("iss", .string(issuerID)), ("iat", .integer(issued)), ("exp", .integer(issued + 300)),
            ("aud", .string("appstoreconnect-v1")), ("bid", .string(bundleID)),
        ])
    }
}
