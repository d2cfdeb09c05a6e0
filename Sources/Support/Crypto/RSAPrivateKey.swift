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
        guard pem.count <= ECPrivateKey.largestPEM else { return nil }
        let bio = pem.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
        defer { BIO_free(bio) }
        // No passphrase, ever: without this callback OpenSSL would prompt on the terminal for an
        // encrypted key and wait there.
        guard let key = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil) else {
            ERR_clear_error()
            return nil
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA, EVP_PKEY_get_bits(key) >= Self.shortestBits, Self.isConsistent(key)
        else {
            EVP_PKEY_free(key)
            ERR_clear_error()
            return nil
        }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    private static func isConsistent(_ key: OpaquePointer) -> Bool {
        guard let context = EVP_PKEY_CTX_new(key, nil) else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        return EVP_PKEY_check(context) == 1
    }

    /// The RS256 signature of `message` (RSASSA-PKCS1-v1_5 with SHA-256), as JOSE writes it.
    package func signRS256(_ message: [UInt8]) -> [UInt8]? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { return nil }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { return nil }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else { return nil }
        return Array(signature.prefix(length))
    }
}
