internal import COpenSSL

/// An RSA private key read from a PEM (the `private_key` of a Google service account's key
/// file), signing RS256 tokens.
///
/// The key never leaves OpenSSL's memory and has no textual form here: nothing can print it.
package final class RSAPrivateKey {
    private let pointer: OpaquePointer

    /// Shortest key taken: Google issues 2048-bit keys, and shorter ones are not safe.
    package static let shortestBits: Int32 = 2048

    /// Reads a PEM private key; nil when it is not PEM, not RSA, shorter than `shortestBits`,
    /// inconsistent, or larger than any key (`ECPrivateKey.largestPEM`).
    package init?(pem: [UInt8]) {
        guard
            let key = PEMPrivateKey.read(
                pem, largest: ECPrivateKey.largestPEM,
                accepts: { EVP_PKEY_get_base_id($0) == EVP_PKEY_RSA && EVP_PKEY_get_bits($0) >= Self.shortestBits })
        else { return nil }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// The RS256 signature of `message` (RSASSA-PKCS1-v1_5 with SHA-256), as JOSE writes it.
    package func signRS256(_ message: [UInt8]) -> [UInt8]? { PEMPrivateKey.signSHA256(pointer, message) }
}
