internal import COpenSSL

/// An ECDSA P-256 private key read from a PKCS#8 PEM file (App Store Connect's `.p8` in-app
/// purchase key), signing ES256 tokens.
///
/// The key never leaves OpenSSL's memory and has no textual form here: nothing can print it.
package final class ECPrivateKey {
    private let pointer: OpaquePointer

    /// The largest key file read: a `.p8` P-256 key is about 250 bytes, and OpenSSL's PEM
    /// reader is not meant for megabytes of whatever a wrong path names.
    package static let largestPEM = 16 * 1024

    /// Reads a PEM private key; nil when it is not PEM, not a private key, not P-256, a key
    /// whose public half is not its own (its tokens would verify nowhere), or larger than any
    /// key (`largestPEM`).
    package init?(pem: [UInt8]) {
        guard pem.count <= Self.largestPEM else { return nil }
        let bio = pem.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
        defer { BIO_free(bio) }
        // No passphrase, ever: without this callback OpenSSL would prompt on the terminal for an
        // encrypted key and wait there.
        guard let key = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil) else {
            ERR_clear_error()
            return nil
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256, Self.isConsistent(key) else {
            EVP_PKEY_free(key)
            ERR_clear_error()
            return nil
        }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// OpenSSL's full check: the private key is in range and the public key is its own.
    private static func isConsistent(_ key: OpaquePointer) -> Bool {
        guard let context = EVP_PKEY_CTX_new(key, nil) else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        return EVP_PKEY_check(context) == 1
    }

    /// The ES256 signature of `message` as JOSE writes it: r || s, 32 bytes each.
    package func signES256(_ message: [UInt8]) -> [UInt8]? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { return nil }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { return nil }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else { return nil }
        return Self.jose(Array(der.prefix(length)))
    }

    /// The public half, for checking what this key signed.
    package var publicKey: PublicKey? {
        var der: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(pointer, &der)
        guard length > 0, let der else { return nil }
        defer { CRYPTO_free(der, #fileID, #line) }
        var cursor: UnsafePointer<UInt8>? = UnsafePointer(der)
        guard let copy = d2i_PUBKEY(nil, &cursor, Int(length)) else { return nil }
        return PublicKey(owning: copy)
    }

    /// DER ECDSA-Sig-Value to JOSE's fixed r || s.
    private static func jose(_ der: [UInt8]) -> [UInt8]? {
        der.withUnsafeBufferPointer { buffer -> [UInt8]? in
            var cursor = buffer.baseAddress
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { return nil }
            defer { ECDSA_SIG_free(signature) }
            var r = [UInt8](repeating: 0, count: 32)
            var s = [UInt8](repeating: 0, count: 32)
            guard BN_bn2binpad(ECDSA_SIG_get0_r(signature), &r, 32) == 32,
                BN_bn2binpad(ECDSA_SIG_get0_s(signature), &s, 32) == 32
            else { return nil }
            return r + s
        }
    }
}
