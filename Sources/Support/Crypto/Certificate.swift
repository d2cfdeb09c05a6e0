internal import COpenSSL
import Glibc

/// An X.509 certificate, parsed by OpenSSL, with the few questions signature checks ask of it.
///
/// Not `Sendable`: a certificate is used by the thread that parsed it (the verdicts that are
/// shared between threads are plain values, see `ChainVerdict`).
package final class Certificate {
    let pointer: OpaquePointer
    /// The certificate as DER bytes.
    package let der: [UInt8]

    /// Parses DER bytes; nil when they are not a certificate.
    package init?(der: [UInt8]) {
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let parsed else { return nil }
        pointer = parsed
        self.der = der
    }

    deinit { X509_free(pointer) }

    /// The certificates of a file in DER (one) or PEM (one or more).
    package static func load(path: String) throws -> [Certificate] {
        let file = try FileDescriptor.openForReading(path)
        var bytes: [UInt8] = []
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { block.deallocate() }
        while true {
            let count = try file.read(into: block)
            if count == 0 { break }
            bytes += block[..<count]
        }
        if let single = Certificate(der: bytes) { return [single] }
        return pemCertificates(bytes)
    }

    private static func pemCertificates(_ bytes: [UInt8]) -> [Certificate] {
        var found: [Certificate] = []
        bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return }
            defer { BIO_free(bio) }
            while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) {
                var der: UnsafeMutablePointer<UInt8>?
                let length = i2d_X509(x509, &der)
                X509_free(x509)
                guard length > 0, let der else { continue }
                let copy = Array(UnsafeBufferPointer(start: der, count: Int(length)))
                CRYPTO_free(der, #file, #line)
                if let certificate = Certificate(der: copy) { found.append(certificate) }
            }
            ERR_clear_error()
        }
        return found
    }

    /// SHA-256 of the DER bytes, lower-case hex: how certificates are pinned and named.
    package var sha256: String { der.withUnsafeBytes { SHA256.digest($0) } }

    /// The subject as one line, for messages.
    package var subject: String {
        guard let name = X509_get_subject_name(pointer), let line = X509_NAME_oneline(name, nil, 0) else { return "?" }
        defer { CRYPTO_free(line, #file, #line) }
        return String(cString: line)
    }

    /// True when the certificate carries an extension with this OID (dotted), critical or not.
    package func hasExtension(oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else { return false }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(pointer, object, -1) >= 0
    }

    /// When the certificate is valid: `notBefore ... notAfter`, both included.
    package var validity: ClosedRange<Timestamp>? {
        guard let start = Certificate.timestamp(X509_get0_notBefore(pointer)),
            let end = Certificate.timestamp(X509_get0_notAfter(pointer)), start <= end
        else { return nil }
        return start...end
    }

    private static func timestamp(_ time: UnsafePointer<ASN1_TIME>?) -> Timestamp? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Timestamp(milliseconds: Int64(timegm(&parts)) * 1000)
    }

    /// The subject public key, when it is an EC P-256 key (the only kind ES256 uses).
    package var p256PublicKey: PublicKey? {
        guard let key = X509_get_pubkey(pointer) else { return nil }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
            EVP_PKEY_free(key)
            return nil
        }
        return PublicKey(owning: key)
    }
}
