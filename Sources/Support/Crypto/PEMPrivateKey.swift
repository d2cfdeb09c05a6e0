internal import COpenSSL

/// What the tool's private keys share: reading one from PEM and signing with SHA-256.
enum PEMPrivateKey {
    /// The PEM's private key when `accepts` takes it and OpenSSL's full check passes.
    ///
    /// The check: the private key in range, the public half its own. Nil otherwise, or for
    /// more than `largest` bytes. The caller owns the key (`EVP_PKEY_free`).
    static func read(_ pem: [UInt8], largest: Int, accepts: (OpaquePointer) -> Bool) -> OpaquePointer? {
        guard pem.count <= largest else { return nil }
        let bio = pem.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
        defer { BIO_free(bio) }
        // No passphrase, ever: without this callback OpenSSL would prompt on the terminal for an
        // encrypted key and wait there.
        guard let key = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil) else {
            ERR_clear_error()
            return nil
        }
        guard accepts(key), isConsistent(key) else {
            EVP_PKEY_free(key)
            ERR_clear_error()
            return nil
        }
        return key
    }

    private static func isConsistent(_ key: OpaquePointer) -> Bool {
        guard let context = EVP_PKEY_CTX_new(key, nil) else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        return EVP_PKEY_check(context) == 1
    }

    /// `key`'s signature of `message` with SHA-256, as OpenSSL writes it (DER for ECDSA).
    static func signSHA256(_ key: OpaquePointer, _ message: [UInt8]) -> [UInt8]? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { return nil }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { return nil }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else { return nil }
        return Array(signature.prefix(length))
    }
}
