internal import COpenSSL
import Glibc

/// Builds and checks a certificate chain with OpenSSL: from the leaf through the given
/// intermediates to one of the trusted roots, every signature in it verified.
///
/// Dates are left
/// to the caller, who checks them at the time that matters (a payload's `signedDate`).
package enum CertificateChain {
    /// The chain found (leaf first, trusted root last), or why there is none.
    package static func build(leaf: Certificate, intermediates: [Certificate], roots: [Certificate]) -> Result<
        [Certificate], ChainError
    > {
        guard let store = X509_STORE_new() else { return .failure(.other("cannot create a certificate store")) }
        defer { X509_STORE_free(store) }
        for root in roots { X509_STORE_add_cert(store, root.pointer) }
        guard let context = X509_STORE_CTX_new() else { return .failure(.other("cannot create a verification context")) }
        defer { X509_STORE_CTX_free(context) }
        guard let untrusted = OPENSSL_sk_new_null() else { return .failure(.other("cannot create a certificate list")) }
        defer { OPENSSL_sk_free(untrusted) }
        for certificate in intermediates { OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.pointer)) }
        guard X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1 else {
            return .failure(.other("cannot start verifying the chain"))
        }
        X509_STORE_CTX_set_flags(context, UInt(X509_V_FLAG_NO_CHECK_TIME))
        defer { ERR_clear_error() }
        guard X509_verify_cert(context) == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            let text = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
            switch code {
            case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
                X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
                X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
                return .failure(.untrustedRoot(text))
            default:
                return .failure(.invalid(text))
            }
        }
        guard let chain = X509_STORE_CTX_get0_chain(context) else { return .failure(.other("no chain")) }
        var built: [Certificate] = []
        for index in 0..<OPENSSL_sk_num(chain) {
            guard let raw = OPENSSL_sk_value(chain, index) else { continue }
            let x509 = OpaquePointer(raw)
            var der: UnsafeMutablePointer<UInt8>?
            let length = i2d_X509(x509, &der)
            guard length > 0, let der else { continue }
            let copy = Array(UnsafeBufferPointer(start: der, count: Int(length)))
            CRYPTO_free(der, #file, #line)
            if let certificate = Certificate(der: copy) { built.append(certificate) }
        }
        return .success(built)
    }
}

/// Why a certificate chain does not verify.
package enum ChainError: Error, Sendable, Hashable {
    /// The chain ends at a root that is not trusted (or at no root).
    case untrustedRoot(String)
    /// A signature in the chain, or a certificate's content, is wrong.
    case invalid(String)
    case other(String)
}
