internal import COpenSSL

/// An ECDSA P-256 private key made from a seed, signing deterministically: the same seed and
/// message give the same signature bytes, so generated test data is byte-identical for a seed.
///
/// For test chains and synthetic data only: the key comes from a seed anyone who knows it can
/// recompute, and the nonce is derived from the key and the message (never reused across
/// messages). OpenSSL does the curve arithmetic; the nonce rule is the only thing added.
package final class SigningKey {
    private let group: OpaquePointer
    private let scalar: OpaquePointer
    /// The public point, uncompressed (65 bytes: 04 || x || y).
    let publicPoint: [UInt8]

    /// The key whose scalar is SHA-256(seed) reduced into [1, n-1].
    package init(seed: [UInt8]) {
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else {
            fatalError("OpenSSL without the P-256 curve")
        }
        self.group = group
        let context = BN_CTX_new()
        defer { BN_CTX_free(context) }
        let digest = SigningKey.sha256(seed)
        let scalar = SigningKey.reduced(digest, group: group, context: context)
        self.scalar = scalar
        publicPoint = SigningKey.multiplyBase(scalar, group: group, context: context).point
    }

    deinit {
        BN_clear_free(scalar)
        EC_GROUP_free(group)
    }

    /// The key as SubjectPublicKeyInfo DER, for a certificate.
    package var subjectPublicKeyInfo: [UInt8] {
        DER.sequence([
            DER.sequence([DER.objectIdentifier("1.2.840.10045.2.1"), DER.objectIdentifier("1.2.840.10045.3.1.7")]),
            DER.bitString(publicPoint),
        ])
    }

    /// The ES256 signature of `message` as JOSE writes it: r || s, 32 bytes each.
    package func signES256(_ message: [UInt8]) -> [UInt8] {
        let context = BN_CTX_new()
        defer { BN_CTX_free(context) }
        let order = EC_GROUP_get0_order(group)
        let digest = SigningKey.sha256(message)
        let e = BN_bin2bn(digest, Int32(digest.count), nil)
        defer { BN_free(e) }
        var scalarBytes = [UInt8](repeating: 0, count: 32)
        BN_bn2binpad(scalar, &scalarBytes, 32)
        var counter: UInt8 = 0
        while true {
            // The nonce: SHA-256(key || digest || counter) reduced, retried on the rare zero.
            let k = SigningKey.reduced(SigningKey.sha256(scalarBytes + digest + [counter]), group: group, context: context)
            defer { BN_clear_free(k) }
            counter &+= 1
            let (_, x) = SigningKey.multiplyBase(k, group: group, context: context)
            defer { BN_free(x) }
            let r = BN_new()
            let s = BN_new()
            let kInverse = BN_new()
            let product = BN_new()
            defer { [r, s, kInverse, product].forEach { BN_free($0) } }
            BN_nnmod(r, x, order, context)
            BN_mod_mul(product, r, scalar, order, context)
            BN_mod_add(product, product, e, order, context)
            BN_mod_inverse(kInverse, k, order, context)
            BN_mod_mul(s, kInverse, product, order, context)
            if BN_is_zero(r) == 1 || BN_is_zero(s) == 1 { continue }
            var signature = [UInt8](repeating: 0, count: 64)
            signature.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                BN_bn2binpad(r, base, 32)
                BN_bn2binpad(s, base + 32, 32)
            }
            return signature
        }
    }

    /// `bytes` as a number, reduced into [1, n-1].
    private static func reduced(_ bytes: [UInt8], group: OpaquePointer, context: OpaquePointer?) -> OpaquePointer {
        let order = EC_GROUP_get0_order(group)
        let value = BN_bin2bn(bytes, Int32(bytes.count), nil)
        defer { BN_free(value) }
        let one = BN_new()
        let range = BN_new()
        defer {
            BN_free(one)
            BN_free(range)
        }
        BN_set_word(one, 1)
        BN_sub(range, order, one)
        guard let result = BN_new() else { fatalError("out of memory") }
        BN_nnmod(result, value, range, context)
        BN_add(result, result, one)
        return result
    }

    /// k·G: the uncompressed point and its x coordinate.
    private static func multiplyBase(
        _ k: OpaquePointer, group: OpaquePointer, context: OpaquePointer?
    ) -> (point: [UInt8], x: OpaquePointer?) {
        let point = EC_POINT_new(group)
        defer { EC_POINT_free(point) }
        EC_POINT_mul(group, point, k, nil, nil, context)
        let x = BN_new()
        let y = BN_new()
        defer { BN_free(y) }
        EC_POINT_get_affine_coordinates(group, point, x, y, context)
        var bytes = [UInt8](repeating: 0, count: 65)
        EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, &bytes, 65, context)
        return (bytes, x)
    }

    private static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard let context = EVP_MD_CTX_new() else { return digest }
        defer { EVP_MD_CTX_free(context) }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        bytes.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest
    }
}
