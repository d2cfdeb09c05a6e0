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
        guard
            let key = PEMPrivateKey.read(
                pem, largest: Self.largestPEM,
                accepts: { EVP_PKEY_get_base_id($0) == EVP_PKEY_EC && EVP_PKEY_get_bits($0) == 256 })
        else { return nil }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// The ES256 signature of `message` as JOSE writes it: r || s, 32 bytes each.
    package func signES256(_ message: [UInt8]) -> [UInt8]? {
        PEMPrivateKey.signSHA256(pointer, message).flatMap(Self.jose)
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
