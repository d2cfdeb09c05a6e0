internal import COpenSSL
import Glibc

/// A public key held by OpenSSL; verifies ES256 signatures.
package final class PublicKey {
    let pointer: OpaquePointer

    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { EVP_PKEY_free(pointer) }

    /// True when `signature` (DER ECDSA-Sig-Value) is this key's ECDSA P-256 / SHA-256
    /// signature of `message`.
    package func verifiesES256(signature: [UInt8], message: UnsafeRawBufferPointer) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { return false }
        let result = signature.withUnsafeBufferPointer { sig in
            EVP_DigestVerify(
                context, sig.baseAddress, sig.count, message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count)
        }
        ERR_clear_error()
        return result == 1
    }
}
